/**
 * Reads a request's selection the way docs/design.md §6 says, once per request (the edge does it): the raw query
 * string (not express's parsed one, whose rules differ), else the X-MCP-Toolsets header, else the deployment
 * default — and which names the caller itself gave (the default's are the deployment's: a caller is never refused
 * for a toolset it did not ask for).
 */
import type { IncomingMessage } from "node:http";
import { isEmptySelection, parseSelection, type Selection } from "../../host/selection.js";
import type { SelectionOptions } from "../http-options.js";

/** What a request selects, and what of it the caller named. */
export interface RequestSelection {
  selection: Selection;
  /** The toolsets the caller's own query or header names (`only` included), not the deployment's default. */
  named: readonly string[];
}

/** The raw query string of a request target (after `?`, without it). */
export function rawQuery(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "";
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
}

function namesOf(selection: Selection): string[] {
  return [...selection.named, ...(selection.only ?? [])];
}

/**
 * @example
 * const { selection, named } = selectionOf(req, { default: "only=core", ignoreKeys: ["scopes"] });
 */
export function selectionOf(req: IncomingMessage, options: SelectionOptions = {}): RequestSelection {
  const parse = options.ignoreKeys === undefined ? {} : { ignoreKeys: options.ignoreKeys };
  const fromQuery = parseSelection(rawQuery(req), parse);
  if (!isEmptySelection(fromQuery)) return { selection: fromQuery, named: namesOf(fromQuery) };
  const raw = req.headers["x-mcp-toolsets"];
  const header = Array.isArray(raw) ? raw.join(",") : raw;
  if (header !== undefined) {
    const fromHeader = parseSelection(header, parse);
    if (!isEmptySelection(fromHeader)) return { selection: fromHeader, named: namesOf(fromHeader) };
  }
  return { selection: parseSelection(options.default ?? "", parse), named: [] };
}
