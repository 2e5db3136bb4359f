/**
 * Reads a request's selection the way docs/design.md §6 says: the raw query string (not express's parsed one, whose
 * rules differ), else the X-MCP-Toolsets header, else the deployment default.
 */
import type { Request } from "express";
import { selectionFromRequest, type Selection } from "../host/selection.js";
import type { SelectionOptions } from "./http-options.js";

export function rawQuery(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
}

/**
 * @example
 * const selection = selectionOf(req, { default: "only=core", ignoreKeys: ["scopes"] });
 */
export function selectionOf(req: Request, options: SelectionOptions = {}): Selection {
  const header = req.headers["x-mcp-toolsets"];
  return selectionFromRequest({
    query: rawQuery(req),
    header: Array.isArray(header) ? header.join(",") : (header ?? null),
    ...(options.ignoreKeys ? { ignoreKeys: options.ignoreKeys } : {}),
    ...(options.default ? { defaultSelection: options.default } : {}),
  });
}
