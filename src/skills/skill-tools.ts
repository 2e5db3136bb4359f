/**
 * The tools a skill's workflow uses, which decide whether a `readonly` selection serves it (docs/serving.md): the
 * list its spec gives, else its frontmatter's `allowed-tools` (Agent Skills: a space-separated list; a YAML list is
 * read too). A skill that names no tools is left out of a read-only selection — read-only fails closed, as it does
 * for a tool without `readOnlyHint`.
 */

/**
 * @example
 * frontmatterTools({ name: "triage", description: "…", "allowed-tools": "search_issues get_issue" }) // ["search_issues", "get_issue"]
 */
export function frontmatterTools(frontmatter: Readonly<Record<string, unknown>>): string[] | undefined {
  const allowed = frontmatter["allowed-tools"];
  if (typeof allowed === "string") return allowed.split(/\s+/).filter((name) => name.length > 0);
  if (Array.isArray(allowed) && allowed.every((name) => typeof name === "string")) return allowed.filter((name) => name.length > 0);
  return undefined;
}

/**
 * True when a read-only build serves the skill: it names tools, and the build serves every one of them from the
 * skill's toolset.
 * @example
 * servedReadOnly(["search"], "spaces", new Set(["spaces\u0000search"])) // true
 */
export function servedReadOnly(tools: readonly string[] | undefined, toolset: string, served: ReadonlySet<string>): boolean {
  if (tools === undefined || tools.length === 0) return false;
  return tools.every((tool) => served.has(`${toolset}\u0000${tool}`));
}
