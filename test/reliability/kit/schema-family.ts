/**
 * The HTTP fuzz's schema family (issue 17): 2026-07-28 tool calls whose arguments meet schemas with catastrophic
 * patterns and formats — the reliability project's `patterns` extension (the host checks them), a gateway upstream's
 * input schemas (the host checks them) and its output schemas with payloads that choke a backtracking engine (the
 * registry checks them). Attack lengths vary; each must be answered, as a validation error, never hang the server.
 */
import { join } from "node:path";
import { CATASTROPHIC_PATTERNS, FORMAT_CASES, spelled } from "../../helpers/catastrophic-patterns.js";
import { REPO } from "../../helpers/cli-process.js";
import type { Random } from "./seed.js";

const stringSchema = (keyword: Record<string, string>) => ({ type: "object", properties: { value: { type: "string", ...keyword } }, required: ["value"] });

/** The config's `servers` entry for the patterned upstream (JSON is YAML): its tools are `in_<name>` and `out_<name>`. */
export function patternedServer(): string {
  return `servers: ${JSON.stringify(patternedServers())}\n`;
}

/** The patterned upstream as `servers` entries, to join with others. */
export function patternedServers(): Record<string, unknown> {
  const tools = [
    ...CATASTROPHIC_PATTERNS.map((p) => ({ name: `in_${p.name}`, inputSchema: stringSchema({ pattern: p.pattern }) })),
    ...CATASTROPHIC_PATTERNS.map((p) => ({ name: `out_${p.name}`, outputSchema: stringSchema({ pattern: p.pattern }), value: p.attack })),
    { name: "out_format_url", outputSchema: stringSchema({ format: "url" }), value: { ...FORMAT_CASES[0]!.attack, times: 20_000 } },
  ];
  const fixture = join(REPO, "test", "fixtures", "upstream", "patterned-stdio.mjs");
  return { patterned: { command: process.execPath, args: [fixture, JSON.stringify({ tools })] } };
}

/** The tool and arguments of one schema case, within `maxChars` of argument text. */
export function schemaCall(random: Random, maxChars: number): { name: string; arguments: Record<string, unknown>; what: string } {
  const kind = random.int(0, 5);
  const p = random.pick(CATASTROPHIC_PATTERNS);
  const times = random.int(16, 4_000);
  if (kind === 0) return { name: `pattern_${p.name}`, arguments: { value: spelled({ ...p.attack, times }) }, what: `pattern_${p.name} attack ${times}` };
  if (kind === 1) return { name: `pattern_${p.name}`, arguments: random.pick([{ value: p.match }, { value: 42 }, {}]), what: `pattern_${p.name} other` };
  if (kind === 2) {
    const f = random.pick(FORMAT_CASES);
    const unitsThatFit = Math.floor((maxChars - 16) / f.attack.unit.length);
    const attack = spelled({ ...f.attack, times: random.int(1, Math.min(f.attack.times, unitsThatFit)) });
    return { name: `format_${f.format.replace(/-/g, "_")}`, arguments: { value: random.chance(0.2) ? f.match : attack }, what: `format ${f.format}` };
  }
  if (kind === 3) return { name: `in_${p.name}`, arguments: { value: spelled({ ...p.attack, times }) }, what: `in_${p.name} attack ${times}` };
  if (kind === 4) return { name: `in_${p.name}`, arguments: { value: p.match }, what: `in_${p.name} match` };
  const output = random.chance(0.8) ? `out_${p.name}` : "out_format_url";
  return { name: output, arguments: {}, what: output };
}
