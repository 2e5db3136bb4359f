/**
 * The `servers:` section: other people's MCP servers, each a toolset named after its key (docs/design.md §11). One flat
 * object per server (so a misplaced key gets a precise message), turned into a stdio or http entry whose fields
 * mirror the registry's ServerSpec/ServerOptions. Cross-field rules (transport, credentials, URLs) live in
 * server-rules.ts: they must run even when other keys are wrong, and zod stops at the first broken level.
 */
import { z } from "zod";
import { dispatch, isRecord, ranged, text } from "./schema-parts.js";
import { defined } from "../defined.js";

/**
 * Auth kinds built into mcp-host; extensions register more (`authStrategies`).
 * @example
 * BUILT_IN_AUTH_KINDS // ["bearer", "oauth"]
 */
export const BUILT_IN_AUTH_KINDS: readonly string[] = ["bearer", "oauth"];

const bearerAuth = z.strictObject({
  kind: z.literal("bearer"),
  /** Sent as `Authorization: Bearer <token>`; must be a secret reference. */
  token: text,
});

const oauthAuth = z.strictObject({
  kind: z.literal("oauth"),
  clientId: text,
  /** Must be a secret reference. */
  clientSecret: text,
  scope: text.optional(),
  /** The token endpoint. This or `issuer` is required (server-rules.ts). */
  tokenUrl: text.optional(),
  /** The authorization server: its metadata names the token endpoint (on its own origin) when tokenUrl is not set. */
  issuer: text.optional(),
});

const customAuth = z.looseObject({ kind: text });

/**
 * `servers.*.auth`: bearer, oauth (client credentials), or a kind an extension contributes.
 * @example
 * serverAuthSchema.parse({ kind: "bearer", token: "t" }) // { kind: "bearer", token: "t" }
 */
export const serverAuthSchema = dispatch(
  (input) => (isRecord(input) && input.kind === "bearer" ? bearerAuth : isRecord(input) && input.kind === "oauth" ? oauthAuth : customAuth),
  [bearerAuth, oauthAuth, customAuth],
);

/**
 * The idle timeout of an upstream request when a server does not set one (the registry's own default).
 * @example
 * DEFAULT_SERVER_TIMEOUT_MS // 60000
 */
export const DEFAULT_SERVER_TIMEOUT_MS = 60_000;

/** A glob over the server's own tool names (`*` any run, `?` one character). */
const glob = z.string().min(1);

const serverObject = z.strictObject({
  transport: z.enum(["stdio", "http"]).optional(),
  command: text.optional(),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: text.optional(),
  killGraceMs: ranged("servers.*.killGraceMs").default(3_000),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  auth: serverAuthSchema.optional(),
  title: text.optional(),
  description: text.optional(),
  default: z.boolean().default(true),
  include: z.array(glob).default([]),
  exclude: z.array(glob).default([]),
  deniedTools: z.array(glob).default([]),
  timeoutMs: ranged("servers.*.timeoutMs").default(DEFAULT_SERVER_TIMEOUT_MS),
  maxTotalTimeoutMs: ranged("servers.*.maxTotalTimeoutMs").optional(),
  probeTimeoutMs: ranged("servers.*.probeTimeoutMs").default(5_000),
  approval: z.enum(["never", "destructive", "always"]).default("never"),
  unannotated: z.enum(["safe", "destructive"]).default("safe"),
  era: z.enum(["auto", "legacy", "modern"]).optional(),
  structuredContent: z.enum(["error", "lenient"]).default("error"),
});

/** The upstream credentials of one http server. */
export type ServerAuthConfig = z.output<typeof bearerAuth> | z.output<typeof oauthAuth> | (z.output<typeof customAuth> & Record<string, unknown>);

/** What every upstream server accepts, whatever its transport (ServerOptions of the registry). */
export interface CommonServerConfig {
  title?: string;
  description?: string;
  /** Whether the toolset is in the default selection. */
  default: boolean;
  include: string[];
  exclude: string[];
  deniedTools: string[];
  timeoutMs: number;
  maxTotalTimeoutMs?: number;
  probeTimeoutMs: number;
  approval: "never" | "destructive" | "always";
  unannotated: "safe" | "destructive";
  /** Default (unset): the registry's, "auto" over http and "legacy" over stdio. */
  era?: "auto" | "legacy" | "modern";
  structuredContent: "error" | "lenient";
}

/** A server mcp-host starts as a child process. `cwd` is absolute once loaded. */
export interface StdioServerConfig extends CommonServerConfig {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  killGraceMs: number;
}

/** A Streamable HTTP server. Header values and auth secrets are resolved. */
export interface HttpServerConfig extends CommonServerConfig {
  transport: "http";
  url: string;
  headers: Record<string, string>;
  auth?: ServerAuthConfig;
}

/** One entry of `servers:`, resolved. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

function toServerConfig(entry: z.output<typeof serverObject>): ServerConfig {
  const { transport, command, args, env, cwd, killGraceMs, url, headers, auth, ...common } = entry;
  if ((transport ?? (command !== undefined ? "stdio" : "http")) === "stdio") {
    return { ...common, transport: "stdio", command: command ?? "", args, env, ...defined({ cwd }), killGraceMs };
  }
  return { ...common, transport: "http", url: url ?? "", headers, ...(auth === undefined ? {} : { auth: auth as ServerAuthConfig }) };
}

/**
 * One upstream server: `command` makes it stdio, `url` makes it http, or say so with `transport`.
 * @example
 * serverSchema.parse({ command: "uvx", args: ["mcp-server-git"] }).transport // "stdio"
 */
export const serverSchema = serverObject.transform(toServerConfig);
