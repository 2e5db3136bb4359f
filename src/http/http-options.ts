/**
 * The options of the HTTP face of a host (docs/design.md §8, config `http:` and `selection:`).
 */
import type { CorsOptions } from "cors";
import type { Clock } from "../clock.js";
import type { Observability } from "../observe/observability.js";
import type { Fleet } from "../scale-out/fleet.js";
import type { HostAuthOptions } from "./auth/host-auth-options.js";
import type { TrustProxySetting } from "./edge/client-address.js";

/** How 2025-era clients are served: with sessions, without, or not at all. */
export type LegacyMode = "stateful" | "stateless" | "reject";

/** How the host serves 2025-era (legacy) clients over HTTP (docs/design.md §8). */
export interface LegacyServingOptions {
  /** `stateful` (default): sessions with Mcp-Session-Id; `stateless`: no sessions; `reject`: modern only. */
  legacy?: LegacyMode;
  /** A legacy session ends after this long without traffic (default 30 min). */
  sessionIdleTtlMs?: number;
  /** Beyond this many live legacy sessions a new one is refused with 503 (default 10 000). */
  maxSessions?: number;
  /** One caller's share of `maxSessions`: beyond, its next session is refused with 429 (default 100). */
  maxSessionsPerCaller?: number;
  /** Resource URIs one legacy session or one listen stream may follow (default 256). */
  maxSubscriptionsPerSession?: number;
  /** The longest resource URI a client may subscribe to (default 2048 characters). */
  maxSubscriptionUriLength?: number;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** A legacy session's GET stream is ended after this long open, so the client reconnects (default 24 h). */
  streamMaxAgeMs?: number;
}

/** What one caller may ask of the MCP endpoint (docs/design.md §16); the caller is the token's subject, else the client address. */
export interface CallerLimitOptions {
  /** Requests a second one caller may send on average; beyond, 429 with Retry-After (default 0: no rate limit). */
  callerRequestsPerSecond?: number;
  /** How many requests above its rate a caller may send at once (default 100). */
  callerBurst?: number;
  /** Requests of one caller in flight at once, streams excepted; beyond, 429 (default 128). */
  callerMaxConcurrent?: number;
  /** `subscriptions/listen` streams one caller may hold open at once; beyond, 429 (default 32). */
  maxListenStreamsPerCaller?: number;
}

export interface SelectionOptions {
  /** Applied when a request's selection is empty (same grammar as a query, e.g. "only=core"). */
  default?: string;
  /** Refuse names nobody declared with 400 instead of serving and reporting them. */
  strict?: boolean;
  /** Query keys that belong to the deployment and are not toolset names. */
  ignoreKeys?: string[];
}

export interface HostAppOptions extends LegacyServingOptions, CallerLimitOptions {
  /** Deepest nesting of arrays and objects a request body may have; deeper gets 400 (default 64). */
  maxJsonDepth?: number;
  /**
   * Where the HTTP layer's deadlines read the time — session expiry, caller rates, token expiry, the shutdown drain.
   * Default: the host's clock (`HostOptions.clock`), so a test gives the host a manual clock and the app follows.
   */
  clock?: Clock;
  /** The MCP endpoint (default `/mcp`). */
  path?: string;
  /** Host names accepted besides loopback (DNS-rebinding protection). */
  allowedHosts?: string[];
  /** Origins accepted besides loopback ones, e.g. `https://app.example.com`. */
  allowedOrigins?: string[];
  /** Check Host and Origin (default true). */
  dnsRebindingProtection?: boolean;
  /**
   * Which peers may say who the client is, as express's `trust proxy` (default `false`: the socket peer is the
   * client): `true`, a hop count, or addresses, CIDRs and `loopback`, `linklocal`, `uniquelocal`. From a trusted
   * proxy, `X-Forwarded-For` gives the caller's address (rates, per-caller shares, log lines) and
   * `X-Forwarded-Proto`/`Forwarded` the scheme of the URLs auth advertises. The connection caps stay per socket peer.
   */
  trustProxy?: TrustProxySetting;
  /** CORS, off unless given: `{ origin: [...] }` or `true` for any origin. A CORS origin is an allowed origin. */
  cors?: CorsOptions | boolean;
  selection?: SelectionOptions;
  /**
   * Named endpoints (config `endpoints:`, docs/discovery.md): a name for a selection in the URL grammar, e.g.
   * `{ spaces: "only=spaces", readonly: "all&readonly" }`. Each gets a server card at `{path}/server-card?<selection>`,
   * and the catalog at `/.well-known/mcp/catalog.json` lists them; `/toolsets` and the operator page link them.
   */
  endpoints?: Readonly<Record<string, string>>;
  /**
   * Bearer-token verification for every selection (docs/design.md §9), in the shape of the config file's `auth:`
   * section (plus `verifier`, `publicBaseUrl`…). Absent: no token is asked for.
   */
  auth?: HostAuthOptions;
  /**
   * Logs, metrics and traces of what is served (`createObservability`; give the host its `hostObserver` too).
   * Absent: no access lines, no metrics, no spans.
   */
  observability?: Observability;
  /** `/metrics`, when `observability` has metrics: its path (default `/metrics`), a loopback port of its own, and
   * with auth on the scopes a token needs to read it on the app's port. */
  metrics?: { path?: string; port?: number; scopes?: string[] };
  /** The operator page: on by default at `/`; `{ path }` moves it, `false` turns it off. */
  ui?: boolean | { path?: string };
  /**
   * Serve ordinary 2026-07-28 requests on long-lived pooled SDK servers (default true; docs/design.md §8): the same
   * answers as the SDK's entry, at less cost. `false` sends every request through the SDK's entry
   * (`createMcpHandler`). On an SDK version the fast path was not proven on, it is off whatever this says.
   */
  fastPath?: boolean;
  /**
   * This instance's part in a fleet behind a load balancer (docs/scale-out.md; `createFleet`, config `scaleOut:`): its
   * name starts every 2025-era session id, and with Redis the fleet's events and callers' rates are shared. The app
   * does not close it. Absent: one instance on its own.
   */
  scaleOut?: Fleet;
  /** The upstream servers the operator page lists (the gateway's `status()`); default: those the host reports down. */
  upstreams?: () => readonly { server: string; state: string; tools?: number; paused?: number; code?: string; message?: string }[];
}
