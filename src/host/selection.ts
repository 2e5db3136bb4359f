/**
 * The selection grammar (docs/design.md §6): how a URL query, an X-MCP-Toolsets header or a deployment default turns
 * into the set of active toolsets and the names nobody declared. It is the reference host's grammar, kept
 * separate from building so every rule can be pinned by a test without a server.
 */
import { McpHostError } from "../errors.js";

/** What a query asked for: names to add, an `only` set (null when absent), names to leave out. */
export interface Selection {
  readonly named: ReadonlySet<string>;
  readonly only: ReadonlySet<string> | null;
  readonly without: ReadonlySet<string>;
}

/** Options for `parseSelection`. */
export interface ParseSelectionOptions {
  /** Query keys that belong to the deployment (e.g. `scopes`), skipped before anything else (rule 3). */
  ignoreKeys?: readonly string[];
}

const RESERVED = new Set(["toolsets", "only", "without"]);
const LIST_SEPARATOR = /[\s,]+/;

function splitList(text: string): string[] {
  return text.split(LIST_SEPARATOR).filter((part) => part.length > 0);
}

function sortedUnique(names: Iterable<string>): string[] {
  return [...new Set(names)].sort();
}

/**
 * Parses a query string in the selection grammar (rules 1–6). `undefined`, `null` and `""` give the empty
 * selection; a leading `?` is allowed. Pass only the query, not a whole URL.
 * @example
 * parseSelection("?only=spaces&without=library") // { named: {}, only: {"spaces"}, without: {"library"} }
 * parseSelection("benchmarks,library")            // { named: {"benchmarks","library"}, only: null, without: {} }
 */
export function parseSelection(query: string | null | undefined, options: ParseSelectionOptions = {}): Selection {
  const named = new Set<string>();
  const without = new Set<string>();
  let only: Set<string> | null = null;
  const ignored = new Set(options.ignoreKeys ?? []);
  for (const [rawKey, value] of new URLSearchParams(query ?? "")) {
    const key = rawKey.trim();
    if (key.length === 0 || ignored.has(key)) continue;
    if (!RESERVED.has(key)) {
      for (const name of splitList(key)) named.add(name);
    } else if (key === "toolsets") {
      for (const name of splitList(value)) named.add(name);
    } else if (key === "only") {
      only ??= new Set<string>();
      for (const name of splitList(value)) only.add(name);
    } else {
      for (const name of splitList(value)) without.add(name);
    }
  }
  return Object.freeze({ named, only, without });
}

/**
 * True when the selection names nothing, has no `only` and no `without` (rule 7): the deployment default applies.
 * @example
 * isEmptySelection(parseSelection("toolsets=")) // true
 * isEmptySelection(parseSelection("only="))     // false: `only` is present (and empty)
 */
export function isEmptySelection(selection: Selection): boolean {
  return selection.named.size === 0 && selection.only === null && selection.without.size === 0;
}

/** What `resolveSelection` needs to know of each declared toolset (flags already defaulted by the caller). */
export interface DeclaredToolsetFlags {
  name: string;
  default: boolean;
  always: boolean;
}

/**
 * Computes the active toolsets (rule 8) and the unknown names (rule 9), both sorted. A name declared several
 * times counts as `default` / `always` when any of its declarations says so.
 * @example
 * resolveSelection([{ name: "core", default: true, always: true }, { name: "x", default: false, always: false }],
 *   parseSelection("only=x&without=core&nosuch")) // { active: ["core", "x"], unknown: ["nosuch"] }
 */
export function resolveSelection(declared: readonly DeclaredToolsetFlags[], selection: Selection): { active: string[]; unknown: string[] } {
  const names = new Set(declared.map((toolset) => toolset.name));
  const always = new Set(declared.filter((toolset) => toolset.always).map((toolset) => toolset.name));
  const active = new Set<string>(always);
  if (selection.only !== null) {
    for (const name of selection.only) if (names.has(name)) active.add(name);
  } else {
    for (const toolset of declared) if (toolset.default) active.add(toolset.name);
    for (const name of selection.named) if (names.has(name)) active.add(name);
  }
  for (const name of selection.without) if (!always.has(name)) active.delete(name);
  const asked = [...selection.named, ...(selection.only ?? []), ...selection.without];
  return { active: sortedUnique(active), unknown: sortedUnique(asked.filter((name) => !names.has(name))) };
}

/**
 * The build cache key: sorted unique active names joined by `,` — so `?a&b`, `?b&a` and `?toolsets=a,b` share one.
 * @example
 * selectionKey(["spaces", "core", "spaces"]) // "core,spaces"
 */
export function selectionKey(active: readonly string[]): string {
  return sortedUnique(active).join(",");
}

/** Where a request's selection can come from, in order of precedence. */
export interface SelectionSource {
  /** The URL's query string (with or without `?`). */
  query?: string | null;
  /** The `X-MCP-Toolsets` header value, in the same grammar. */
  header?: string | null;
  /** The deployment's `selection.ignoreKeys`; applied to the query, the header and the default alike. */
  ignoreKeys?: readonly string[];
  /** The deployment's `selection.default`, in the same grammar. */
  defaultSelection?: string | null;
}

/**
 * The selection of one request (docs/design.md §6): the query; when the query names nothing (is empty after ignored keys
 * are dropped), the `X-MCP-Toolsets` header; when that is empty too, the deployment default.
 * @example
 * selectionFromRequest({ query: "", header: "only=spaces" })            // only = {"spaces"}
 * selectionFromRequest({ query: "library", defaultSelection: "only=core" }) // named = {"library"}: the URL wins
 */
export function selectionFromRequest(source: SelectionSource): Selection {
  const options = source.ignoreKeys === undefined ? {} : { ignoreKeys: source.ignoreKeys };
  const fromQuery = parseSelection(source.query, options);
  if (!isEmptySelection(fromQuery)) return fromQuery;
  const fromHeader = parseSelection(source.header, options);
  if (!isEmptySelection(fromHeader)) return fromHeader;
  return parseSelection(source.defaultSelection, options);
}

function quoteList(names: readonly string[]): string {
  return names.map((name) => JSON.stringify(name)).join(", ");
}

/**
 * Strict mode (rule 9): refuses a selection that used names nobody declared. Throws `SELECTION_UNKNOWN_TOOLSET`
 * listing the unknown names and the declared toolsets, both sorted. Does nothing when `unknown` is empty.
 * @example
 * assertNoUnknownToolsets(resolveSelection(declared, selection).unknown, declared.map((t) => t.name));
 */
export function assertNoUnknownToolsets(unknown: readonly string[], declared: readonly string[]): void {
  if (unknown.length === 0) return;
  const names = sortedUnique(unknown);
  const known = sortedUnique(declared);
  const offered = known.length === 0 ? "no toolsets are declared" : `declared toolsets: ${quoteList(known)}`;
  throw new McpHostError(
    "SELECTION_UNKNOWN_TOOLSET",
    `unknown toolset${names.length === 1 ? "" : "s"} ${quoteList(names)} in the selection; ${offered}. ` +
      "Use one of the declared names, or turn off selection.strict to serve unknown names with a warning.",
  );
}

function encodeList(names: ReadonlySet<string>): string {
  return sortedUnique(names).map(encodeURIComponent).join(",");
}

/**
 * Renders a selection back into the grammar, so that `parseSelection(formatSelection(s))` gives `s` again.
 * Lists are sorted; names are percent-encoded where the grammar would misread them. Empty → `""`.
 * @example
 * formatSelection(parseSelection("library&benchmarks&only=")) // "toolsets=benchmarks,library&only="
 */
export function formatSelection(selection: Selection): string {
  const parts: string[] = [];
  if (selection.named.size > 0) parts.push(`toolsets=${encodeList(selection.named)}`);
  if (selection.only !== null) parts.push(`only=${encodeList(selection.only)}`);
  if (selection.without.size > 0) parts.push(`without=${encodeList(selection.without)}`);
  return parts.join("&");
}
