/**
 * Pages of `skills/list` and `resources/directory/read` (docs/skills.md): items sorted by URI, a cursor that names
 * the last URI a page held (opaque to clients: base64url), found again in a map — so a page costs the same whatever
 * the number of skills, and a cursor still works after the item it names is gone.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** Entries per page (the SDK's catalog default). */
export const PAGE_SIZE = 100;

const PREFIX = "after:";

/** A sorted list of items and where each URI sits in it. */
export interface Paged<T> {
  readonly items: readonly T[];
  readonly uris: readonly string[];
  readonly at: ReadonlyMap<string, number>;
}

/** Indexes items that are already sorted by URI. */
export function paged<T>(items: readonly T[], uriOf: (item: T) => string): Paged<T> {
  const uris = items.map(uriOf);
  return { items, uris, at: new Map(uris.map((uri, index) => [uri, index])) };
}

function encode(uri: string): string {
  return Buffer.from(PREFIX + uri, "utf8").toString("base64url");
}

function decode(cursor: string): string | undefined {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  return text.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
}

/** The index of the first URI after `uri` (binary search: the cursor's item may be gone). */
function after(uris: readonly string[], uri: string): number {
  let low = 0;
  let high = uris.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (uris[mid]! <= uri) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * One page, and the cursor of the next when there is more. A cursor this host did not make is -32602.
 * @example
 * const { items, nextCursor } = pageOf(table.listing, params.cursor);
 */
export function pageOf<T>(list: Paged<T>, cursor: string | undefined, size = PAGE_SIZE): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const uri = decode(cursor);
    if (uri === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page as it is");
    const index = list.at.get(uri);
    start = index === undefined ? after(list.uris, uri) : index + 1;
  }
  const end = Math.min(list.items.length, start + size);
  const items = list.items.slice(start, end);
  return end < list.items.length && end > start ? { items, nextCursor: encode(list.uris[end - 1]!) } : { items };
}
