/**
 * The site's catalog of server cards (docs/discovery.md): one entry per named endpoint the caller may reach, each
 * pointing at its card. Two places, one content: `/.well-known/mcp/catalog.json` (the MCP Catalog of the
 * server-card draft before 2026-07-20, which issue 25 names) and `/.well-known/ai-catalog.json` (the AI Catalog the
 * draft adopted then). Entries carry no human-readable name: the card's title is the one source of it.
 */
import { SERVER_CARD_MEDIA_TYPE } from "./server-card.js";

/** One catalog entry: a logical identifier and where the card is. */
export interface CatalogEntry {
  identifier: string;
  type: typeof SERVER_CARD_MEDIA_TYPE;
  url: string;
}

export interface CatalogDocument {
  specVersion: string;
  entries: CatalogEntry[];
}

/** The two documents, by path: the catalog's `specVersion` is each format's own. */
export const CATALOG_PATHS = {
  "/.well-known/mcp/catalog.json": { specVersion: "draft", mediaType: "application/json" },
  "/.well-known/ai-catalog.json": { specVersion: "1.0", mediaType: "application/ai-catalog+json" },
} as const;

/**
 * An endpoint's identifier, in the AI Catalog's domain-anchored form: `urn:air:<publisher>:mcp:<endpoint>`.
 * @example
 * catalogIdentifier("mcp.example.com", "spaces") // "urn:air:mcp.example.com:mcp:spaces"
 */
export function catalogIdentifier(publisher: string, endpoint: string): string {
  return `urn:air:${publisher.replace(/[^A-Za-z0-9.-]/g, "-")}:mcp:${endpoint}`;
}

/**
 * @example
 * catalogDocument("draft", [{ identifier: "urn:air:example.com:mcp:spaces", url: "https://example.com/mcp/server-card?only=spaces" }])
 */
export function catalogDocument(specVersion: string, entries: readonly { identifier: string; url: string }[]): CatalogDocument {
  return { specVersion, entries: entries.map((entry) => ({ identifier: entry.identifier, type: SERVER_CARD_MEDIA_TYPE, url: entry.url })) };
}
