/**
 * What a new `servers:` map changes against the current one: servers added, removed, changed (any field differs:
 * compared as canonical JSON, so key order does not count) and unchanged — the last keep their connection.
 */
import { compareNames } from "../compare.js";
import type { GatewayServerConfig } from "./gateway-options.js";

/** The servers a reconfiguration adds, removes, changes and leaves alone, each sorted by name. */
export interface ServerChanges {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: string[];
}

/**
 * A value as JSON with every object's keys sorted (and undefined members left out), so two values that differ only
 * in key order compare equal.
 * @example
 * canonicalJson({ b: 1, a: [2] }) === canonicalJson({ a: [2], b: 1 }) // true
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => compareNames(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/**
 * @example
 * serverChanges({ a: { command: "x" } }, { a: { command: "y" }, b: { url: "https://b.example/mcp" } })
 * // { added: ["b"], removed: [], changed: ["a"], unchanged: [] }
 */
export function serverChanges(before: Readonly<Record<string, GatewayServerConfig>>, after: Readonly<Record<string, GatewayServerConfig>>): ServerChanges {
  const out: ServerChanges = { added: [], removed: [], changed: [], unchanged: [] };
  for (const name of Object.keys(after)) {
    if (!(name in before)) out.added.push(name);
    else if (canonicalJson(before[name]) !== canonicalJson(after[name])) out.changed.push(name);
    else out.unchanged.push(name);
  }
  for (const name of Object.keys(before)) if (!(name in after)) out.removed.push(name);
  for (const list of Object.values(out)) list.sort(compareNames);
  return out;
}
