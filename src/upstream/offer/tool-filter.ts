/**
 * A server's `include` / `exclude` (docs/design.md §11): case-sensitive globs over the upstream's own tool names; an empty
 * include means all, and exclude wins. Checked against the real tool list: a pattern that matches none of the tools
 * is a mistake (a typo in `exclude` would quietly offer a tool the operator meant to hide), and so is a filter that
 * leaves nothing — both are TOOL_FILTER_MATCHES_NOTHING, naming the server.
 */
import { McpHostError } from "../../errors.js";
import { globMatcher } from "../../registry/index.js";

/** A server's tool filter. */
export interface ToolFilter {
  /** True for an upstream tool name the toolset offers. */
  keeps(upstreamName: string): boolean;
  /** The problem with these filters on this tool list, or undefined. */
  problem(upstreamNames: readonly string[]): McpHostError | undefined;
}

const SHOWN = 20;

function listOf(names: readonly string[]): string {
  if (names.length === 0) return "it offers no tools";
  const shown = names.slice(0, SHOWN).join(", ");
  return `its tools are ${shown}${names.length > SHOWN ? `, … (${names.length} in all)` : ""}`;
}

/**
 * @example
 * const filter = toolFilter("fs", { include: ["read_*"], exclude: ["read_media_file"] });
 * filter.keeps("read_file") // true
 */
export function toolFilter(server: string, config: { include?: readonly string[]; exclude?: readonly string[] }): ToolFilter {
  const include = [...(config.include ?? [])];
  const exclude = [...(config.exclude ?? [])];
  const included = include.length === 0 ? () => true : globMatcher(include);
  const excluded = globMatcher(exclude);
  const keeps = (name: string) => included(name) && !excluded(name);
  return {
    keeps,
    problem(names) {
      const unmatched = [
        ...include.filter((p) => !names.some(globMatcher([p]))).map((p) => `include pattern "${p}"`),
        ...exclude.filter((p) => !names.some(globMatcher([p]))).map((p) => `exclude pattern "${p}"`),
      ];
      const fail = (what: string) =>
        new McpHostError("TOOL_FILTER_MATCHES_NOTHING", `server "${server}": ${what}; ${listOf(names)} (patterns are case-sensitive globs)`, { server });
      if (unmatched.length > 0) return fail(`${unmatched.join(", ")} ${unmatched.length === 1 ? "matches" : "match"} none of its tools`);
      if ((include.length > 0 || exclude.length > 0) && !names.some(keeps)) return fail("include and exclude leave none of its tools");
      return undefined;
    },
  };
}
