/**
 * The MCP Server Card of one named endpoint (SEP-2127; the wire format of the `experimental-ext-server-card`
 * repository, docs/discovery.md): what a client reads before it connects — a reverse-DNS name, a title, a
 * description composed from the endpoint's toolsets, the host's version, and the endpoint's URL with the protocol
 * versions it answers; with auth on, the bearer header it needs and where its protected-resource metadata is. A card
 * holds only public facts: never a token, a secret, or an upstream's URL.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { NamedEndpoint } from "./named-endpoints.js";

/** The card schema this document conforms to (the `v1` family). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The media type of a card. */
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
/** The 2026-07-28 revision, which every endpoint answers (the SDK lists only the 2025 ones as "supported"). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

const DESCRIPTION_MAX = 100;

/** A card: the fields mcp-host writes (the schema leaves a card open to more). */
export interface ServerCard {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  remotes: Array<{
    type: "streamable-http";
    url: string;
    supportedProtocolVersions: string[];
    headers?: Array<{ name: string; description: string; isRequired: boolean; isSecret: boolean }>;
  }>;
  _meta: Record<string, unknown>;
}

/** What a card needs besides its endpoint: the host's identity, the endpoint's URL, its eras and its auth. */
export interface CardContext {
  /** The host's name and version (`server/discover` answers the same). */
  serverName: string;
  version: string;
  /** The reverse-DNS namespace of the card's name: the public host name, reversed (`com.example.mcp`). */
  namespace: string;
  /** The endpoint's absolute URL, its selection as the query. */
  url: string;
  /** Whether 2025-era clients are served (`http.legacy` is not `reject`). */
  legacy: boolean;
  /** With auth on: the RFC 9728 metadata URL of the endpoint, and every scope its toolsets need. */
  auth?: { metadataUrl?: string; scopes: readonly string[] };
}

/** At most `max` characters, an ellipsis marking a cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The reverse-DNS form of a host name (`mcp.example.com` → `com.example.mcp`); an IP address or a single label stays as
 * it is. Anything a card's name may not hold becomes `-`.
 * @example
 * reverseDns("mcp.example.com") // "com.example.mcp"
 */
export function reverseDns(hostname: string): string {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const labels = bare.split(".");
  const ip = /^\d+(\.\d+){3}$/.test(bare) || bare.includes(":");
  const reversed = ip || labels.length < 2 ? bare : [...labels].reverse().join(".");
  return reversed.replace(/[^A-Za-z0-9.-]/g, "-") || "localhost";
}

/**
 * The description a card carries, from the endpoint's toolsets: one toolset's title and description, else the titles
 * of them all; marked read-only when it is; at most 100 characters (the schema's limit).
 * @example
 * describeEndpoint({ toolsets: [{ name: "time", title: "Time", description: "Current time." }], readonly: false }) // "Time: Current time."
 */
export function describeEndpoint(endpoint: Pick<NamedEndpoint, "toolsets" | "readonly">, serverName = "mcp-host"): string {
  const [only, ...more] = endpoint.toolsets;
  let text: string;
  if (only === undefined) text = `${serverName}: no toolsets`;
  else if (more.length === 0) text = only.description ? `${only.title}: ${only.description}` : only.title;
  else {
    const titles = endpoint.toolsets.map((t) => t.title);
    text = `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}`;
  }
  const suffix = endpoint.readonly ? " (read-only)" : "";
  return `${cut(text, DESCRIPTION_MAX - suffix.length)}${suffix}`;
}

/**
 * @example
 * serverCard(endpoint, { serverName: "tools", version: "1.0.0", namespace: "com.example", url: "https://example.com/mcp?only=spaces", legacy: true })
 */
export function serverCard(endpoint: NamedEndpoint, context: CardContext): ServerCard {
  const versions = context.legacy ? [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS] : [MODERN_PROTOCOL_VERSION];
  const auth = context.auth;
  const remote: ServerCard["remotes"][number] = { type: "streamable-http", url: context.url, supportedProtocolVersions: versions };
  if (auth !== undefined) {
    const where = auth.metadataUrl === undefined ? "from this deployment's operator" : `as its protected-resource metadata says: ${auth.metadataUrl}`;
    remote.headers = [{ name: "Authorization", description: `Bearer <access token>; get one ${where}`, isRequired: true, isSecret: true }];
  }
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cut(`${context.namespace}/${endpoint.name}`, 200),
    title: cut(`${context.serverName} (${endpoint.name})`, DESCRIPTION_MAX),
    description: describeEndpoint(endpoint, context.serverName),
    version: context.version,
    remotes: [remote],
    _meta: {
      "mcp-host/endpoint": { name: endpoint.name, selection: endpoint.selection, toolsets: [...endpoint.active], readonly: endpoint.readonly },
      ...(auth === undefined
        ? {}
        : { "mcp-host/auth": { ...(auth.metadataUrl === undefined ? {} : { protectedResourceMetadata: auth.metadataUrl }), scopes: [...auth.scopes] } }),
    },
  };
}
