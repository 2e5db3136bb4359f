/**
 * The deployment configuration schema (docs/design.md §12): one zod schema whose output is the plain, fully defaulted
 * object the CLI hands down as options. Unknown keys are refused everywhere except inside extension options and
 * custom auth kinds, which belong to their extensions.
 */
import { z } from "zod";
import { authSchema } from "./schema-auth.js";
import { CALLER_SHARES, type CallerShareKey, callerShare } from "../per-caller-share.js";
import { HTTP_TIMING_DEFAULTS, hostName, intRange, originString, ranged, text } from "./schema-parts.js";
import { loggingSchema, metricsSchema, tracingSchema, uiKeys } from "./schema-observe.js";
import { scaleOutSchema } from "./schema-scale-out.js";
import { serverSchema } from "./schema-servers.js";

const extensionsSchema = z.strictObject({
  discover: z.boolean().default(true),
  include: z.array(text).default([]),
  exclude: z.array(text).default([]),
  options: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

const selectionSchema = z.strictObject({
  default: z.string().optional(),
  strict: z.boolean().default(false),
  ignoreKeys: z.array(text).default([]),
  // Tool-search mode for every selection with more tools than this (docs/serving.md); a URL's `search=0` opts out.
  searchAbove: intRange(0, 1_000_000).optional(),
});

const corsSchema = z.preprocess(
  (value) => (value === "*" ? { origin: "*" } : value),
  z.strictObject({ origin: z.union([z.literal("*"), z.array(originString).min(1)]) }),
);

const httpSchema = z.strictObject({
  host: text.default("127.0.0.1"),
  port: ranged("http.port").default(3_000),
  path: z
    .string()
    .regex(/^\/[^?#\s]*$/, { error: 'must start with "/" and have no spaces, "?" or "#"' })
    .default("/mcp"),
  allowedHosts: z.array(hostName).default([]),
  allowedOrigins: z.array(originString).default([]),
  // Which peers may say who the client is, as express's `trust proxy`; each address is checked by http-rules.ts.
  trustProxy: z.union([z.boolean(), intRange(0, 1_000), z.array(text)]).default(false),
  cors: corsSchema.optional(),
  legacy: z.enum(["stateful", "stateless", "reject"]).default("stateful"),
  // Ordinary 2026-07-28 requests on pooled SDK servers (docs/design.md §8); false: all through the SDK's entry.
  fastPath: z.boolean().default(true),
  sessionIdleTtlMs: ranged("http.sessionIdleTtlMs").default(1_800_000),
  maxSessions: ranged("http.maxSessions").default(10_000),
  // The per-caller shares have no fixed default: unset, each is half its table, at most its absolute default (below).
  maxSessionsPerCaller: ranged("http.maxSessionsPerCaller").optional(),
  maxListenStreamsPerCaller: ranged("http.maxListenStreamsPerCaller").optional(),
  maxSubscriptionsPerSession: ranged("http.maxSubscriptionsPerSession").default(256),
  maxSubscriptionUriLength: ranged("http.maxSubscriptionUriLength").default(2_048),
  maxBodyBytes: ranged("http.maxBodyBytes").default(4_194_304),
  shutdownTimeoutMs: ranged("http.shutdownTimeoutMs").default(10_000),
  headersTimeoutMs: ranged("http.headersTimeoutMs").default(HTTP_TIMING_DEFAULTS.headersTimeoutMs),
  requestTimeoutMs: ranged("http.requestTimeoutMs").default(HTTP_TIMING_DEFAULTS.requestTimeoutMs),
  keepAliveTimeoutMs: ranged("http.keepAliveTimeoutMs").default(5_000),
  maxConnections: ranged("http.maxConnections").default(HTTP_TIMING_DEFAULTS.maxConnections),
  maxConnectionsPerAddress: ranged("http.maxConnectionsPerAddress").default(256),
  callerRequestsPerSecond: ranged("http.callerRequestsPerSecond").default(0),
  callerBurst: ranged("http.callerBurst").default(100),
  callerMaxConcurrent: ranged("http.callerMaxConcurrent").optional(),
  maxJsonDepth: ranged("http.maxJsonDepth").default(64),
  streamMaxAgeMs: ranged("http.streamMaxAgeMs").default(86_400_000),
  ...uiKeys,
});

/**
 * Named endpoints (docs/discovery.md): a name (what ends its server card's name and catalog identifier) for a
 * selection in the URL grammar, e.g. `spaces: "only=spaces"`.
 */
const endpointsSchema = z.record(
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { error: "must be 1-64 letters, digits, dots, hyphens or underscores, starting with a letter or digit" }),
  text,
);

type HttpShape = z.output<typeof httpSchema>;

/** `http:` with every per-caller share it leaves unset filled in from its table (src/per-caller-share.ts). */
function withCallerShares(http: HttpShape): HttpShape & { [key in CallerShareKey]: number } {
  const share = (key: CallerShareKey) => http[key] ?? callerShare(http[CALLER_SHARES[key].table], CALLER_SHARES[key].most);
  return {
    ...http,
    maxSessionsPerCaller: share("maxSessionsPerCaller"),
    maxListenStreamsPerCaller: share("maxListenStreamsPerCaller"),
    callerMaxConcurrent: share("callerMaxConcurrent"),
  };
}

/** What one tool may take of the host (docs/design.md §16): calls at once, how long a call waits for a turn, its result's size. */
const toolsSchema = z.strictObject({
  maxConcurrent: ranged("tools.maxConcurrent").default(64),
  queueMs: ranged("tools.queueMs").default(1_000),
  maxResultBytes: ranged("tools.maxResultBytes").default(8_388_608),
});

/** MCP tasks (docs/tasks.md): each caller's share of unfinished tasks, how many are kept, their TTL and poll interval. */
const tasksSchema = z.strictObject({
  maxPerCaller: ranged("tasks.maxPerCaller").default(16),
  maxTasks: ranged("tasks.maxTasks").default(10_000),
  ttlMs: ranged("tasks.ttlMs").default(3_600_000),
  maxTtlMs: ranged("tasks.maxTtlMs").default(86_400_000),
  pollIntervalMs: ranged("tasks.pollIntervalMs").default(1_000),
});

/**
 * The whole configuration file. Parse with `loadConfig` (which also resolves secret references and applies the
 * cross-field rules), not with this schema alone.
 * @example
 * deploymentConfigSchema.parse({}).http.port // 3000
 */
export const deploymentConfigSchema = z.strictObject({
  name: text.optional(),
  version: text.optional(),
  instructions: text.optional(),
  extensions: extensionsSchema.prefault({}),
  selection: selectionSchema.prefault({}),
  endpoints: endpointsSchema.default({}),
  http: httpSchema.transform(withCallerShares).prefault({}),
  tools: toolsSchema.prefault({}),
  tasks: tasksSchema.prefault({}),
  auth: authSchema.optional(),
  logging: loggingSchema.prefault({}),
  // `metrics:` written with nothing under it (YAML null) turns metrics on with the defaults.
  metrics: z.preprocess((value) => (value === null ? {} : value), metricsSchema).optional(),
  tracing: tracingSchema.prefault({}),
  servers: z.record(z.string(), serverSchema).default({}),
  startupTimeoutMs: ranged("startupTimeoutMs").default(10_000),
  remoteServers: z.enum(["required", "optional"]).default("required"),
  scaleOut: scaleOutSchema.optional(),
});

/** A validated, defaulted, resolved deployment configuration. */
export type DeploymentConfig = z.output<typeof deploymentConfigSchema>;

/** What a configuration file may contain (before defaults). */
export type DeploymentConfigInput = z.input<typeof deploymentConfigSchema>;
