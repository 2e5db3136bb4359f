/**
 * Following `nextCursor` to the end of a list, with the two guards a misbehaving server needs: a page cap and a
 * repeated-cursor stop. The SDK's own list helpers aggregate too, but throw at their cap (losing every page read) and
 * cannot say which server misbehaved; this walk keeps what it has and warns.
 */

/** Most pages read from one list of one server. */
export const MAX_PAGES = 100;

/** One page of a list. */
export interface Page<T> {
  items: readonly T[];
  nextCursor?: string;
}

/**
 * Reads every page. An empty-string cursor is a valid cursor; a cursor seen before, or the page cap, stops the walk
 * with a warning and keeps the items read so far.
 * @example
 * const tools = await listAllPages(async (cursor) => {
 *   const r = await client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } });
 *   return { items: r.tools, nextCursor: r.nextCursor };
 * }, { warn: (m) => log.warn(m) });
 */
export async function listAllPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  options: { warn: (message: string) => void; maxPages?: number },
): Promise<T[]> {
  const maxPages = options.maxPages ?? MAX_PAGES;
  const seen = new Set<string>();
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; ; ) {
    const page = await fetchPage(cursor);
    pages++;
    items.push(...page.items);
    const next = page.nextCursor;
    if (next === undefined || next === null) return items;
    if (seen.has(next)) {
      options.warn(`the server repeated a pagination cursor after ${pages} page(s); stopped listing there`);
      return items;
    }
    if (pages >= maxPages) {
      options.warn(`the list went on past ${maxPages} pages; stopped listing there`);
      return items;
    }
    seen.add(next);
    cursor = next;
  }
}
