/**
 * Reads a request's selection the way docs/design.md §6 says: the raw query string (not express's parsed one, whose
 * rules differ), else the X-MCP-Toolsets and X-MCP-Tools headers, else the deployment default; X-MCP-Readonly always
 * counts. What a request names is read once and kept (a bounded number of them): a session sends the same URL on every
 * request.
 */
import type { Request } from "express";
import { selectionFromRequest, type Selection } from "../host/selection.js";
import type { SelectionOptions } from "./http-options.js";

export function rawQuery(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
}

/** Selections already read, by what they were read from: a client sends the same URL on every request. */
const READ = new Map<string, Selection>();
const MAX_READ = 256;

function headerOf(req: Request, name: string): string | null {
  const raw = req.headers[name];
  return Array.isArray(raw) ? raw.join(",") : (raw ?? null);
}

/**
 * @example
 * const selection = selectionOf(req, { default: "only=core", ignoreKeys: ["scopes"] });
 */
export function selectionOf(req: Request, options: SelectionOptions = {}): Selection {
  const header = headerOf(req, "x-mcp-toolsets");
  const toolsHeader = headerOf(req, "x-mcp-tools");
  const readonlyHeader = headerOf(req, "x-mcp-readonly");
  const query = rawQuery(req);
  // A Selection is frozen and only read, so one read serves every request that names the same thing.
  const key = `${query}\u0000${header ?? "\u0001"}\u0000${toolsHeader ?? "\u0001"}\u0000${readonlyHeader ?? "\u0001"}\u0000${options.default ?? ""}\u0000${options.ignoreKeys?.join("\u0000") ?? ""}`;
  const known = READ.get(key);
  if (known !== undefined) return known;
  const selection = selectionFromRequest({
    query,
    header,
    toolsHeader,
    readonlyHeader,
    ...(options.ignoreKeys ? { ignoreKeys: options.ignoreKeys } : {}),
    ...(options.default ? { defaultSelection: options.default } : {}),
  });
  if (READ.size >= MAX_READ) READ.clear();
  READ.set(key, selection);
  return selection;
}
