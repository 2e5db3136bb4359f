/**
 * A deployment's named endpoints (config `endpoints:`, docs/discovery.md): a name for a selection written in the URL
 * grammar (`spaces: "only=spaces"`), which is what a server card and the catalog describe. Each is resolved the
 * way a request to its URL would be — the same grammar, ignored keys and default — so a card says what its URL
 * serves; and one is reachable by a caller only when every toolset it serves is one the caller may reach.
 */
import { compareNames } from "../compare.js";
import type { McpHost } from "../host/host.js";
import { selectionFromRequest, type Selection } from "../host/selection.js";
import { defined } from "../defined.js";

/** What a name may be: it ends a card's name and a catalog identifier, and is written in URLs. */
export const ENDPOINT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** How a named endpoint's selection is read (the HTTP options' `selection`). */
export interface EndpointSelectionOptions {
  default?: string;
  ignoreKeys?: readonly string[];
}

/** One named endpoint, resolved against what the host declares now. */
export interface NamedEndpoint {
  readonly name: string;
  /** Its selection as the config writes it: the query of its URL. */
  readonly selection: string;
  /** The toolsets it serves, sorted. */
  readonly active: readonly string[];
  /** The active toolsets' titles and descriptions, in name order (what its card's description is made of). */
  readonly toolsets: readonly { name: string; title: string; description?: string }[];
  readonly readonly: boolean;
}

function selectionOf(selection: string, options: EndpointSelectionOptions): Selection {
  return selectionFromRequest({
    query: selection,
    header: null,
    toolsHeader: null,
    readonlyHeader: null,
    ...defined({ ignoreKeys: options.ignoreKeys === undefined ? undefined : [...options.ignoreKeys], defaultSelection: options.default }),
  });
}

/**
 * Every named endpoint, sorted by name.
 * @example
 * namedEndpoints(host, { spaces: "only=spaces", readonly: "all&readonly" }).map((e) => e.active)
 */
export function namedEndpoints(host: McpHost, endpoints: Readonly<Record<string, string>>, options: EndpointSelectionOptions = {}): NamedEndpoint[] {
  const declared = new Map(host.declaredToolsets().map((t) => [t.name, t]));
  return Object.entries(endpoints)
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, selection]) => {
      const parsed = selectionOf(selection, options);
      const { active } = host.activeFor(parsed);
      const toolsets = active.map((toolset) => {
        const spec = declared.get(toolset);
        return { name: toolset, title: spec?.title ?? toolset, ...defined({ description: spec?.description }) };
      });
      return { name, selection, active, toolsets, readonly: parsed.readonly };
    });
}

/**
 * True when a caller reaches every toolset the endpoint serves (`permitted` undefined: nothing is guarded).
 * @example
 * reachable(endpoint, ["spaces"]) // false for an endpoint that also serves "admin"
 */
export function reachable(endpoint: NamedEndpoint, permitted: readonly string[] | undefined): boolean {
  if (permitted === undefined) return true;
  const allowed = new Set(permitted);
  return endpoint.active.every((toolset) => allowed.has(toolset));
}

/** A named endpoint as `/toolsets` and the operator page link it: its URL and its card's. */
export interface EndpointLink {
  name: string;
  selection: string;
  /** The endpoint's MCP URL (its selection as the query). */
  url: string;
  /** Its server card: the MCP URL's path with `/server-card` appended, the same query. */
  card: string;
}

/**
 * The URL of an endpoint and of its card, from the MCP endpoint's absolute URL (no query).
 * @example
 * endpointLink({ name: "spaces", selection: "only=spaces" }, new URL("https://example.com/mcp")).card // "https://example.com/mcp/server-card?only=spaces"
 */
export function endpointLink(endpoint: Pick<NamedEndpoint, "name" | "selection">, mcpUrl: URL): EndpointLink {
  const base = mcpUrl.href.replace(/\/+$/, "");
  return { name: endpoint.name, selection: endpoint.selection, url: `${base}?${endpoint.selection}`, card: `${base}/server-card?${endpoint.selection}` };
}
