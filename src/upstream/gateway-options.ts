/**
 * What the gateway is given: the `servers:` of the config (one entry per upstream MCP server, each becoming a toolset
 * named after it), the shared start-up deadline, whether an unreachable server stops start-up, and where it logs and
 * keeps time. The per-server shape mirrors the config's resolved `ServerConfig` field for field (this layer may not
 * import the config), so `createGateway({ servers: config.servers })` type-checks; every field the config defaults
 * is optional here, so code can write a server by hand.
 */
import type { Clock } from "../clock.js";
import type { UpstreamCallObserver } from "./calls/call-observer.js";
import type { Logger } from "../logger.js";
import type { SecretRedactor } from "../secret-redactor.js";

/** An upstream's credentials: a bearer token, OAuth client credentials, or a kind an extension contributes. */
export type GatewayAuthConfig =
  | { kind: "bearer"; token: string }
  | { kind: "oauth"; clientId: string; clientSecret: string; scope?: string; tokenUrl?: string; issuer?: string }
  | { kind: string; [setting: string]: unknown };

/** One upstream server (the config's `servers.<name>`, resolved: secrets are values by now). */
export interface GatewayServerConfig {
  /** Default: `stdio` when `command` is set, else `http`. */
  transport?: "stdio" | "http";
  command?: string;
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** Between SIGTERM and SIGKILL of the child's process group on close (default 3000 ms). */
  killGraceMs?: number;
  url?: string;
  /** Sent on every request (e.g. an API key). Not together with `auth`. */
  headers?: Readonly<Record<string, string>>;
  auth?: GatewayAuthConfig;
  /** The toolset's title and description (default: the upstream's own name for the title, none for the description). */
  title?: string;
  description?: string;
  /** Whether the toolset is on when a URL names nothing (default true). */
  default?: boolean;
  /** Globs over the upstream's tool names: only these are offered (empty: all). Case-sensitive. */
  include?: readonly string[];
  /** Globs over the upstream's tool names left out; exclude wins over include. */
  exclude?: readonly string[];
  /** Globs over the upstream's tool names hidden and refused (the registry's `deniedTools`). */
  deniedTools?: readonly string[];
  timeoutMs?: number;
  maxTotalTimeoutMs?: number;
  probeTimeoutMs?: number;
  /** `destructive`: the downstream client is asked (elicitation) before a destructive tool runs; `always`: before any. */
  approval?: "never" | "destructive" | "always";
  unannotated?: "safe" | "destructive";
  era?: "auto" | "legacy" | "modern";
  structuredContent?: "error" | "lenient";
}

/** How long background reconnection waits between attempts: doubling from `initialDelayMs`, capped, jittered. */
export interface RetryOptions {
  /** The first wait (default 1000 ms). */
  initialDelayMs?: number;
  /** The longest wait (default 30 000 ms). */
  maxDelayMs?: number;
}

/** What `createGateway` takes. */
export interface GatewayOptions {
  /** The upstream servers, by name; each name is a toolset name (a URL can select it: `/mcp?only=git`). */
  servers: Readonly<Record<string, GatewayServerConfig>>;
  /** One deadline for connecting to and listing every server, all at once (default 10 000 ms). */
  startupTimeoutMs?: number;
  /**
   * `required` (default): a server that cannot be reached fails start-up. `optional`: start without it, report it as
   * unavailable, and keep reconnecting in the background until it comes up.
   */
  remoteServers?: "required" | "optional";
  /** The extension's name (default `gateway`). */
  name?: string;
  /** Where the registries log; the extension's own lines go to the host's logger. Default: the host's logger. */
  logger?: Logger;
  /** What start-up deadlines, call limits and reconnection waits run on (default: the host's clock, `ctx.clock`). */
  clock?: Clock;
  retry?: RetryOptions;
  /** How long a call paused on its client's answer is kept for the client's next round (default 10 min). */
  pendingInputTtlMs?: number;
  /** How the gateway introduces itself to upstream servers. */
  clientInfo?: { name: string; version: string };
  /** Times and traces every upstream call (see `createObservability`'s `gatewayObserver`); absent: nobody does. */
  observer?: UpstreamCallObserver;
  /**
   * The largest result a caller may get, in bytes (the CLI passes `tools.maxResultBytes`; default 8 MiB): every answer an
   * upstream sends is counted as it arrives and given up past this and a quarter more (`MCP_ANSWER_TOO_LARGE`).
   */
  maxResultBytes?: number;
  /** The deepest an upstream's answer may nest (the CLI passes `http.maxJsonDepth`; default 64): deeper is refused unparsed. */
  maxJsonDepth?: number;
  /**
   * The deployment's secrets (the CLI passes the one its logger uses). The gateway teaches it every credential it
   * obtains (OAuth tokens, the headers an auth strategy adds, secrets a code-made config holds) and keeps them out of
   * what upstreams answer and of what the registries report. Default: one of its own.
   */
  redactor?: SecretRedactor;
}

/** Defaults applied once, so every part reads one resolved value. */
export const GATEWAY_DEFAULTS = {
  name: "gateway",
  startupTimeoutMs: 10_000,
  remoteServers: "required",
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  pendingInputTtlMs: 600_000,
  /** Added to the start-up deadline for the host's setup timeout, so the gateway's own deadline always fires first. */
  setupMarginMs: 5_000,
  clientInfo: { name: "mcp-host-gateway", version: "0.1.0" },
} as const;
