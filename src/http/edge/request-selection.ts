/**
 * Reads a request's selection the way docs/design.md §6 says, once per request (the edge does it): the raw query
 * string (not express's parsed one, whose rules differ), else the X-MCP-Toolsets and X-MCP-Tools headers, else the
 * deployment default; X-MCP-Readonly always counts. It also says which toolsets the caller itself named (the
 * default's are the deployment's: a caller is never refused for a toolset it did not ask for).
 */
import type { IncomingMessage } from "node:http";
import { isEmptySelection, selectionFromRequest, type Selection, type SelectionSource } from "../../host/selection.js";
import type { SelectionOptions } from "../http-options.js";
import { defined } from "../../defined.js";

/** What a request selects, and what of it the caller named. */
export interface RequestSelection {
  selection: Selection;
  /** The toolsets the caller's own query or headers name (`only` included), not the deployment's default. */
  named: readonly string[];
}

/** The raw query string of a request target (after `?`, without it). */
export function rawQuery(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "";
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const raw = req.headers[name];
  return Array.isArray(raw) ? raw.join(",") : (raw ?? null);
}

function namesOf(selection: Selection): string[] {
  return [...selection.named, ...(selection.only ?? [])];
}

/**
 * @example
 * const { selection, named } = selectionOf(req, { default: "only=core", ignoreKeys: ["scopes"] });
 */
export function selectionOf(req: IncomingMessage, options: SelectionOptions = {}): RequestSelection {
  return selectionFrom(sourceOf(req, options), options);
}

/** Selections remembered per reader: a client asks for the same few URLs over and over. */
const MEMO_ENTRIES = 512;
/** Longer inputs are parsed each time: the memo stays small whatever a client sends. */
const MEMO_KEY_CHARS = 1024;

/**
 * `selectionOf` with a memo: the same query and selection headers give the same (immutable) selection object, so
 * the host can in turn remember that selection's plan for the current revision. Bounded, least recently used first
 * out; a request whose query and headers are long is parsed as it is and not remembered.
 * @example
 * const read = selectionReader({ default: "only=core" }); const { selection } = read(req);
 */
export function selectionReader(options: SelectionOptions = {}): (req: IncomingMessage) => RequestSelection {
  const memo = new Map<string, RequestSelection>();
  return (req) => {
    const source = sourceOf(req, options);
    const key = `${source.query}\n${source.header ?? "\u0000"}\n${source.toolsHeader ?? "\u0000"}\n${source.readonlyHeader ?? "\u0000"}`;
    if (key.length > MEMO_KEY_CHARS) return selectionFrom(source, options);
    const known = memo.get(key);
    if (known !== undefined) {
      memo.delete(key);
      memo.set(key, known);
      return known;
    }
    const read = selectionFrom(source, options);
    if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(key, read);
    return read;
  };
}

function sourceOf(req: IncomingMessage, options: SelectionOptions): SelectionSource {
  return {
    query: rawQuery(req),
    header: headerOf(req, "x-mcp-toolsets"),
    toolsHeader: headerOf(req, "x-mcp-tools"),
    readonlyHeader: headerOf(req, "x-mcp-readonly"),
    ...defined({ ignoreKeys: options.ignoreKeys }),
  };
}

function selectionFrom(source: SelectionSource, options: SelectionOptions): RequestSelection {
  // Without the default first: what is left is the caller's own; only when that is empty does the default apply.
  const own = selectionFromRequest(source);
  if (!isEmptySelection(own)) return { selection: own, named: namesOf(own) };
  if (options.default === undefined) return { selection: own, named: [] };
  return { selection: selectionFromRequest({ ...source, defaultSelection: options.default }), named: [] };
}
