/**
 * Small building blocks shared by the configuration schema: bounded integers (every range lives here, so the
 * docs and the messages quote the same numbers), scope tokens, and a dispatch on a `kind` field that keeps each
 * variant's own errors precise (a plain union would report every variant's complaints at once).
 */
import { z } from "zod";

/**
 * An integer within [min, max]; the message quotes both ends.
 * @example
 * intRange(0, 65535).default(3000)
 */
export function intRange(min: number, max: number): z.ZodNumber {
  return z.number().int().min(min).max(max);
}

/**
 * The ranges the schema enforces, by key path (`*` stands for any server name). Documented in docs/config.md.
 * @example
 * RANGES["http.port"] // [0, 65535]
 */
export const RANGES = {
  "http.port": [0, 65_535],
  "http.sessionIdleTtlMs": [1_000, 86_400_000],
  "http.maxSessions": [1, 1_000_000],
  "http.maxSessionsPerCaller": [1, 1_000_000],
  "http.maxListenStreamsPerCaller": [1, 100_000],
  "http.maxSubscriptionsPerSession": [1, 100_000],
  "http.maxSubscriptionUriLength": [16, 65_536],
  "http.maxBodyBytes": [1_024, 268_435_456],
  "http.shutdownTimeoutMs": [0, 600_000],
  "http.headersTimeoutMs": [1_000, 300_000],
  "http.requestTimeoutMs": [1_000, 3_600_000],
  "http.keepAliveTimeoutMs": [100, 600_000],
  "http.maxConnections": [1, 1_000_000],
  "http.maxConnectionsPerAddress": [1, 1_000_000],
  "http.callerRequestsPerSecond": [0, 1_000_000],
  "http.callerBurst": [1, 1_000_000],
  "http.callerMaxConcurrent": [1, 100_000],
  "http.maxJsonDepth": [8, 1_000],
  "http.streamMaxAgeMs": [60_000, 604_800_000],
  "tools.maxConcurrent": [1, 100_000],
  "tools.queueMs": [0, 60_000],
  "tools.maxResultBytes": [1_024, 268_435_456],
  "tasks.maxPerCaller": [1, 10_000],
  "tasks.maxTasks": [1, 1_000_000],
  "tasks.ttlMs": [1_000, 604_800_000],
  "tasks.maxTtlMs": [1_000, 604_800_000],
  "tasks.pollIntervalMs": [100, 3_600_000],
  "scaleOut.taskLeaseMs": [3_000, 3_600_000],
  "metrics.port": [0, 65_535],
  "auth.clockToleranceSec": [0, 300],
  "auth.introspection.cacheMaxSeconds": [0, 3_600],
  "servers.*.timeoutMs": [100, 3_600_000],
  "servers.*.maxTotalTimeoutMs": [100, 86_400_000],
  "servers.*.probeTimeoutMs": [100, 60_000],
  "servers.*.killGraceMs": [0, 60_000],
  startupTimeoutMs: [100, 300_000],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * The defaults of the `http` keys the cross-field rules compare (http-rules.ts reads the raw file, before the
 * schema has filled them in): one place, so the schema and the rules cannot disagree.
 * @example
 * HTTP_TIMING_DEFAULTS.headersTimeoutMs // 10000
 */
export const HTTP_TIMING_DEFAULTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 4_096 } as const;

/**
 * The integer schema for a key listed in RANGES.
 * @example
 * ranged("http.port").default(3000)
 */
export function ranged(key: keyof typeof RANGES): z.ZodNumber {
  const [min, max] = RANGES[key];
  return intRange(min, max);
}

/**
 * An OAuth scope token: visible ASCII, no spaces or quotes (RFC 6749 §3.3).
 * @example
 * scopeToken.safeParse("mcp:admin").success // true
 */
export const scopeToken = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { error: "must be one scope token (no spaces, quotes or backslashes)" });

/**
 * A non-empty string.
 * @example
 * text.optional()
 */
export const text = z.string().min(1);

/**
 * Why `value` is not a web origin (`scheme://host[:port]`), or undefined. Never repeats the value.
 * @example
 * originProblem("https://app.example.com/path") // "has a path, query or fragment; …"
 */
export function originProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not an origin; write scheme://host[:port], e.g. https://app.example.com";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http:// or https:// origin";
  if (url.username || url.password) return "contains a user name or password; an origin is scheme://host[:port]";
  if (url.search || url.hash || !/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(value))
    return "has a path, query or fragment; an origin is scheme://host[:port] only";
  return undefined;
}

/**
 * A web origin, normalised the way browsers send it (`https://App.Example.com/` → `https://app.example.com`).
 * @example
 * originString.parse("https://App.Example.com/") // "https://app.example.com"
 */
export const originString = z
  .string()
  .superRefine((value, ctx) => {
    const why = originProblem(value);
    if (why !== undefined) ctx.addIssue({ code: "custom", message: why });
  })
  .transform((value) => new URL(value).origin);

/**
 * A Host header value: a host name or IP literal, optionally with a port — not a URL.
 * @example
 * hostName.safeParse("mcp.example.com:8443").success // true
 */
export const hostName = z.string().regex(/^([A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/, {
  error: "must be a host name (optionally with :port), not a URL",
});

interface Dispatch {
  variants: readonly z.ZodType[];
  pick: (input: unknown) => z.ZodType;
}

const DISPATCHES = new WeakMap<object, Dispatch>();

/**
 * A schema that validates its input with the variant `pick` chooses, reporting only that variant's issues.
 * @example
 * const auth = dispatch((v) => (isRecord(v) && v.kind === "bearer" ? bearer : custom), [bearer, custom]);
 */
export function dispatch<const V extends readonly z.ZodType[]>(pick: (input: unknown) => V[number], variants: V) {
  const schema = z.unknown().transform((input, ctx): z.output<V[number]> => {
    const result = pick(input).safeParse(input);
    if (result.success) return result.data as z.output<V[number]>;
    for (const issue of result.error.issues) ctx.issues.push(issue as never);
    return z.NEVER;
  });
  DISPATCHES.set(schema, { variants, pick });
  return schema;
}

/**
 * The dispatch behind `schema`, if it is one (for walking the schema).
 * @example
 * dispatchOf(serverAuthSchema)?.variants.length // 3
 */
export function dispatchOf(schema: unknown): Dispatch | undefined {
  return typeof schema === "object" && schema !== null ? DISPATCHES.get(schema) : undefined;
}

/**
 * True for a plain object (not null, not a list).
 * @example
 * isRecord([]) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
