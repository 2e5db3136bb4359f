/**
 * The selection grammar (docs/design.md §6): how a URL query, an X-MCP-Toolsets header or a deployment default turns
 * into the set of active toolsets and the names nobody declared. It is the reference host's grammar, kept
 * separate from building so every rule can be pinned by a test without a server.
 */
import { McpHostError } from "../errors.js";
import { closestKey } from "../suggest.js";
import { defined } from "../defined.js";

/**
 * What a query asked for: names to add, an `only` set (null when absent), names to leave out, single tools to add,
 * and the two modifiers. Lists keep the words as written; the keywords `all` and `default` are expanded when the
 * selection is resolved against what is declared.
 */
export interface Selection {
  readonly named: ReadonlySet<string>;
  readonly only: ReadonlySet<string> | null;
  readonly without: ReadonlySet<string>;
  /** `tools=a,b`: single tools by name (raw, `toolset__tool` or `toolset.tool`), added on top of or instead of toolsets. */
  readonly tools: ReadonlySet<string>;
  /** `readonly`: serve only tools annotated `readOnlyHint: true` (resources and prompts stay). */
  readonly readonly: boolean;
  /** `search`: true lists only `find_tools` and `call_tool`; false never does; null lets `searchAbove` decide. */
  readonly search: boolean | null;
}

/** Options for `parseSelection`. */
export interface ParseSelectionOptions {
  /** Query keys that belong to the deployment (e.g. `scopes`), skipped before anything else (rule 3). */
  ignoreKeys?: readonly string[];
}

/** Keys with a meaning of their own (rule 4); every other key is a list of toolset names (rule 5). */
const RESERVED = new Set(["toolsets", "only", "without", "tools", "readonly", "search"]);
/** List words that stand for a set of declared toolsets (rule 6). */
export const SELECTION_KEYWORDS = { all: "all", default: "default" } as const;
const OFF_VALUES = new Set(["0", "false", "no", "off"]);
const LIST_SEPARATOR = /[\s,]+/;

function splitList(text: string): string[] {
  return text.split(LIST_SEPARATOR).filter((part) => part.length > 0);
}

function sortedUnique(names: Iterable<string>): string[] {
  return [...new Set(names)].sort();
}

/**
 * A modifier's value (rule 4): on when absent, empty, or anything but `0`, `false`, `no`, `off` (any case) — a typo
 * in `readonly=` must fail closed, never serve the tools that write.
 * @example
 * modifierValue("") // true
 * modifierValue("False") // false
 */
export function modifierValue(value: string | null | undefined): boolean {
  return !OFF_VALUES.has((value ?? "").trim().toLowerCase());
}

interface Parsing {
  named: Set<string>;
  only: Set<string> | null;
  without: Set<string>;
  tools: Set<string>;
  readonly: boolean;
  search: boolean | null;
}

/**
 * Adds a name list's words, taking the modifier words out as modifiers: `readonly` and `search` are keys of their
 * own and also words of a name list (`?repos,readonly`, `X-MCP-Toolsets: repos,readonly`), so read-only is never lost.
 */
function addNames(target: Set<string>, words: readonly string[], parsing: Parsing): void {
  for (const word of words) {
    if (word === "readonly") parsing.readonly = true;
    else if (word === "search") parsing.search = true;
    else target.add(word);
  }
}

function readKey(parsing: Parsing, key: string, value: string): void {
  if (!RESERVED.has(key)) addNames(parsing.named, splitList(key), parsing);
  else if (key === "toolsets") addNames(parsing.named, splitList(value), parsing);
  else if (key === "only") {
    parsing.only ??= new Set<string>();
    addNames(parsing.only, splitList(value), parsing);
  } else if (key === "without") {
    for (const name of splitList(value)) parsing.without.add(name);
  } else if (key === "tools") {
    for (const name of splitList(value)) parsing.tools.add(name);
  } else if (key === "readonly") {
    parsing.readonly ||= modifierValue(value);
  } else {
    parsing.search = parsing.search === true || modifierValue(value);
  }
}

/**
 * Parses a query string in the selection grammar (rules 1–6). `undefined`, `null` and `""` give the empty
 * selection; a leading `?` is allowed. Pass only the query, not a whole URL.
 * @example
 * parseSelection("?only=spaces&without=library") // { named: {}, only: {"spaces"}, without: {"library"}, … }
 * parseSelection("benchmarks,library&readonly")   // { named: {"benchmarks","library"}, only: null, readonly: true, … }
 * parseSelection("tools=get_issue&search")        // { named: {}, tools: {"get_issue"}, search: true, … }
 */
export function parseSelection(query: string | null | undefined, options: ParseSelectionOptions = {}): Selection {
  const parsing: Parsing = { named: new Set(), only: null, without: new Set(), tools: new Set(), readonly: false, search: null };
  const ignored = new Set(options.ignoreKeys ?? []);
  for (const [rawKey, value] of new URLSearchParams(query ?? "")) {
    const key = rawKey.trim();
    if (key.length === 0 || ignored.has(key)) continue;
    readKey(parsing, key, value);
  }
  return Object.freeze(parsing);
}

/**
 * True when the selection names nothing, has no `only`, no `without` and no `tools` (rule 7): the deployment default
 * applies. The modifiers do not count: `?readonly` is the default selection, read-only.
 * @example
 * isEmptySelection(parseSelection("toolsets=")) // true
 * isEmptySelection(parseSelection("readonly"))  // true
 * isEmptySelection(parseSelection("only="))     // false: `only` is present (and empty)
 */
export function isEmptySelection(selection: Selection): boolean {
  return selection.named.size === 0 && selection.only === null && selection.without.size === 0 && selection.tools.size === 0;
}

/** What `resolveSelection` needs to know of each declared toolset (flags already defaulted by the caller). */
export interface DeclaredToolsetFlags {
  name: string;
  default: boolean;
  always: boolean;
}

/**
 * The names a list stands for (rule 6): `all` is every declared toolset, `default` the default ones; other words are
 * themselves. Keywords are never unknown.
 * @example
 * expandKeywords(["default", "library"], declared) // ["library", "spaces"] when spaces is the only default
 */
export function expandKeywords(words: Iterable<string>, declared: readonly DeclaredToolsetFlags[]): string[] {
  const names: string[] = [];
  for (const word of words) {
    if (word === SELECTION_KEYWORDS.all) names.push(...declared.map((toolset) => toolset.name));
    else if (word === SELECTION_KEYWORDS.default) names.push(...declared.filter((toolset) => toolset.default).map((toolset) => toolset.name));
    else names.push(word);
  }
  return names;
}

function isKeyword(word: string): boolean {
  return word === SELECTION_KEYWORDS.all || word === SELECTION_KEYWORDS.default;
}

/**
 * Computes the active toolsets (rule 8) and the unknown toolset names (rule 9), both sorted. A name declared several
 * times counts as `default` / `always` when any of its declarations says so. `tools=` with no toolset named is single
 * tools *instead of* toolsets: the defaults are not added (the always-on toolsets are). The tools themselves are
 * resolved by the host, which knows who offers what (`resolveToolNames`).
 * @example
 * resolveSelection([{ name: "core", default: true, always: true }, { name: "x", default: false, always: false }],
 *   parseSelection("only=x&without=core&nosuch")) // { active: ["core", "x"], unknown: ["nosuch"] }
 */
export function resolveSelection(declared: readonly DeclaredToolsetFlags[], selection: Selection): { active: string[]; unknown: string[] } {
  const names = new Set(declared.map((toolset) => toolset.name));
  const always = new Set(declared.filter((toolset) => toolset.always).map((toolset) => toolset.name));
  const active = new Set<string>(always);
  if (selection.only !== null) {
    for (const name of expandKeywords(selection.only, declared)) if (names.has(name)) active.add(name);
  } else {
    const toolsInstead = selection.named.size === 0 && selection.tools.size > 0;
    if (!toolsInstead) for (const toolset of declared) if (toolset.default) active.add(toolset.name);
    for (const name of expandKeywords(selection.named, declared)) if (names.has(name)) active.add(name);
  }
  for (const name of expandKeywords(selection.without, declared)) if (!always.has(name)) active.delete(name);
  const asked = [...selection.named, ...(selection.only ?? []), ...selection.without];
  return { active: sortedUnique(active), unknown: sortedUnique(asked.filter((name) => !names.has(name) && !isKeyword(name))) };
}

/**
 * The key of a set of active toolsets: sorted unique names joined by `,` — so `?a&b`, `?b&a` and `?toolsets=a,b`
 * share one. A build's key adds its view (build/build-id.ts: `core,spaces&readonly&search`).
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
  /** The `X-MCP-Tools` header value: a list of tool names, as `tools=` takes them. */
  toolsHeader?: string | null;
  /** The `X-MCP-Readonly` header value: `true` (or anything but `false`, `0`, `no`, `off`) turns read-only on. */
  readonlyHeader?: string | null;
  /** The deployment's `selection.ignoreKeys`; applied to the query, the header and the default alike. */
  ignoreKeys?: readonly string[];
  /** The deployment's `selection.default`, in the same grammar. */
  defaultSelection?: string | null;
}

/** The headers' selection: X-MCP-Toolsets in the grammar, plus X-MCP-Tools's tools. */
function headerSelection(source: SelectionSource, options: ParseSelectionOptions): Selection {
  const fromHeader = parseSelection(source.header, options);
  const tools = splitList(source.toolsHeader ?? "");
  if (tools.length === 0) return fromHeader;
  return Object.freeze({ ...fromHeader, tools: new Set([...fromHeader.tools, ...tools]) });
}

/**
 * The selection of one request (docs/design.md §6): the query; when the query names nothing (is empty after ignored keys
 * are dropped), the headers (X-MCP-Toolsets, X-MCP-Tools); when they name nothing either, the deployment default.
 * Read-only is never dropped: `readonly` in the query or in X-MCP-Toolsets, or `X-MCP-Readonly: true`, each turns it on
 * whichever source names the toolsets. `search` is the query's, else the headers', else the default's when it applies.
 * @example
 * selectionFromRequest({ query: "", header: "only=spaces" })                // only = {"spaces"}
 * selectionFromRequest({ query: "library", defaultSelection: "only=core" }) // named = {"library"}: the URL wins
 * selectionFromRequest({ query: "library", readonlyHeader: "true" })        // named = {"library"}, readonly
 */
export function selectionFromRequest(source: SelectionSource): Selection {
  const options = defined({ ignoreKeys: source.ignoreKeys });
  const fromQuery = parseSelection(source.query, options);
  const fromHeaders = headerSelection(source, options);
  const readonlyHeader = source.readonlyHeader !== undefined && source.readonlyHeader !== null && modifierValue(source.readonlyHeader);
  const requested = fromQuery.readonly || fromHeaders.readonly || readonlyHeader;
  const search = fromQuery.search ?? fromHeaders.search;
  const base = !isEmptySelection(fromQuery) ? fromQuery : !isEmptySelection(fromHeaders) ? fromHeaders : undefined;
  if (base !== undefined) return withModifiers(base, requested, search);
  const fallback = parseSelection(source.defaultSelection, options);
  return withModifiers(fallback, requested || fallback.readonly, search ?? fallback.search);
}

function withModifiers(selection: Selection, readonly: boolean, search: boolean | null): Selection {
  if (selection.readonly === readonly && selection.search === search) return selection;
  return Object.freeze({ ...selection, readonly, search });
}

function quoteList(names: readonly string[]): string {
  return names.map((name) => JSON.stringify(name)).join(", ");
}

/** How `unknown` lists a tool name nobody offers: as the selection wrote it, so it never reads as a toolset. */
export const UNKNOWN_TOOL_PREFIX = "tools=";

/**
 * The unknown names, said for a person: the toolsets (each with "did you mean" when one of `known` is close) and the
 * tools apart. `known` is what the caller may use — with auth on, only the toolsets its token reaches, so a
 * suggestion never names a toolset it could not use.
 * @example
 * unknownNamesText(["tiem", "tools=nosuch"], ["text", "time"]) // 'unknown toolset "tiem" (did you mean "time"?) and unknown tool "nosuch" (…)'
 */
export function unknownNamesText(unknown: readonly string[], known: readonly string[]): string {
  const names = sortedUnique(unknown.filter((name) => !name.startsWith(UNKNOWN_TOOL_PREFIX)));
  const tools = sortedUnique(unknown.filter((name) => name.startsWith(UNKNOWN_TOOL_PREFIX)).map((name) => name.slice(UNKNOWN_TOOL_PREFIX.length)));
  const guessed = names.map((name) => {
    const guess = closestKey(name, known);
    return guess === undefined ? JSON.stringify(name) : `${JSON.stringify(name)} (did you mean ${JSON.stringify(guess)}?)`;
  });
  return [
    ...(names.length === 0 ? [] : [`unknown toolset${names.length === 1 ? "" : "s"} ${guessed.join(", ")}`]),
    ...(tools.length === 0 ? [] : [`unknown tool${tools.length === 1 ? "" : "s"} ${quoteList(tools)} (no active or declared toolset offers it)`]),
  ].join(" and ");
}

/**
 * Strict mode (rule 9): refuses a selection that used names nobody declared. Throws `SELECTION_UNKNOWN_TOOLSET`
 * listing the unknown toolsets (with "did you mean") and tools and the toolsets the caller may use, all sorted. Does
 * nothing when `unknown` is empty. With auth on, `declared` is only what the caller's token reaches.
 * @example
 * assertNoUnknownToolsets(resolveSelection(declared, selection).unknown, declared.map((t) => t.name));
 */
export function assertNoUnknownToolsets(unknown: readonly string[], declared: readonly string[]): void {
  if (unknown.length === 0) return;
  const known = sortedUnique(declared);
  const offered = known.length === 0 ? "no toolsets are declared" : `declared toolsets: ${quoteList(known)}`;
  throw new McpHostError(
    "SELECTION_UNKNOWN_TOOLSET",
    `${unknownNamesText(unknown, known)} in the selection; ${offered}. ` +
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
 * formatSelection(parseSelection("readonly&tools=b,a"))       // "tools=a,b&readonly"
 */
export function formatSelection(selection: Selection): string {
  const parts: string[] = [];
  if (selection.named.size > 0) parts.push(`toolsets=${encodeList(selection.named)}`);
  if (selection.only !== null) parts.push(`only=${encodeList(selection.only)}`);
  if (selection.without.size > 0) parts.push(`without=${encodeList(selection.without)}`);
  if (selection.tools.size > 0) parts.push(`tools=${encodeList(selection.tools)}`);
  if (selection.readonly) parts.push("readonly");
  if (selection.search !== null) parts.push(selection.search ? "search" : "search=0");
  return parts.join("&");
}
