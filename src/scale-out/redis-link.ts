/**
 * The instance's connections to the fleet's Redis (docs/scale-out.md): one for commands (the rate-limit script, the
 * events it publishes) and one in subscriber mode (the channels it follows). ioredis is imported here, only when a
 * deployment has `scaleOut.redis`, so a deployment without it never loads a Redis client. Both connections reconnect
 * on their own with a bounded backoff; a command never waits for Redis to come back (no offline queue, a short
 * timeout), so an outage costs a request nothing but what it would have shared. The link reports "down" and "up" once
 * per change, and never prints the URL (it may carry a password).
 */
import type { Redis, RedisOptions } from "ioredis";
import { systemClock, type Clock } from "../clock.js";
import type { Logger } from "../logger.js";

/** How long one Redis command may take before the request that needed it goes on without it. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** The longest wait between two reconnection attempts. */
export const REDIS_MAX_BACKOFF_MS = 2_000;

/** What the rest of the fleet code needs of Redis: two connections and whether they are up. */
export interface RedisLink {
  readonly commands: Redis;
  readonly subscriber: Redis;
  /** True while both connections are ready. */
  readonly up: boolean;
  /** Called each time the subscriber connection is ready (again): the channels followed must be subscribed anew. */
  onSubscriberReady(listener: () => void): void;
  /** Notes a command that failed (logged once per outage, as the outage). */
  failed(what: string, error: unknown): void;
  close(): Promise<void>;
}

export interface RedisLinkOptions {
  url: string;
  /** Names the connections in Redis's CLIENT LIST (`mcp-host:<instanceId>`). */
  connectionName: string;
  logger: Logger;
  /** What the once-a-minute "Redis did not answer in time" line is measured on (default: the system clock). */
  clock?: Clock;
}

function optionsFor(connectionName: string, subscriber: boolean): RedisOptions {
  return {
    connectionName: subscriber ? `${connectionName}:events` : connectionName,
    // A request never waits for Redis: while it is down a command fails at once, and the caller goes on without it.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // The channels followed are subscribed again by the fleet's events on every `ready` (they may have changed).
    autoResubscribe: false,
    retryStrategy: (attempt: number) => Math.min(100 * attempt, REDIS_MAX_BACKOFF_MS),
  };
}

/** A message that says what failed, without the URL or anything else of the configuration. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

/**
 * Opens both connections (without waiting for them: a fleet starts while its Redis is still coming up).
 * @example
 * const link = await openRedisLink({ url: "redis://127.0.0.1:6379", connectionName: "mcp-host:a", logger });
 */
export async function openRedisLink(options: RedisLinkOptions): Promise<RedisLink> {
  const { Redis } = await import("ioredis");
  const logger = options.logger;
  const clock = options.clock ?? systemClock;
  const commands = new Redis(options.url, optionsFor(options.connectionName, false));
  const subscriber = new Redis(options.url, optionsFor(options.connectionName, true));
  const readyListeners: Array<() => void> = [];
  let state: "up" | "down" | undefined;
  let slowSince = Number.NEGATIVE_INFINITY;
  let closed = false;
  const isUp = () => commands.status === "ready" && subscriber.status === "ready";
  // Reported once per change: down when a connection fails (not while it is first connecting), up again when both are.
  const changed = (reason?: string) => {
    if (closed) return;
    if (isUp()) {
      if (state === "down") logger.info("Redis is reachable again: events and rate limits are shared across the fleet again");
      state = "up";
      return;
    }
    if (reason === undefined || state === "down") return;
    state = "down";
    logger.warn(`Redis is unreachable (${reason}): events reach only this instance's listeners and rate limits are not enforced until it is back`, {
      code: "SCALE_OUT_REDIS_DOWN",
    });
  };
  for (const connection of [commands, subscriber]) {
    connection.on("ready", () => changed());
    connection.on("close", () => changed("connection closed"));
    // Without a listener ioredis prints every connection error itself; the state change is what is logged.
    connection.on("error", (error: unknown) => {
      logger.debug(`a Redis connection failed: ${reasonOf(error)}`);
      changed(reasonOf(error));
    });
  }
  subscriber.on("ready", () => {
    for (const listener of readyListeners) listener();
  });
  return {
    commands,
    subscriber,
    get up() {
      return isUp();
    },
    onSubscriberReady(listener) {
      readyListeners.push(listener);
      if (subscriber.status === "ready") listener();
    },
    failed(what, error) {
      logger.debug(`${what} failed: ${reasonOf(error)}`);
      if (!isUp()) return changed(reasonOf(error));
      // Connected but not answering in time (an overloaded Redis): said at most once a minute.
      const now = clock.now();
      if (now - slowSince < 60_000) return;
      slowSince = now;
      logger.warn(`Redis did not answer in time (${what}: ${reasonOf(error)}); the request went on without it`, { code: "SCALE_OUT_REDIS_DOWN" });
    },
    async close() {
      closed = true;
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

/**
 * Whether Redis at `url` answers a PING within `timeoutMs` (what `mcp-host check` asks): undefined when it does, else
 * why not, without the URL.
 * @example
 * await pingRedis("redis://127.0.0.1:6379", 2_000) // undefined, or "ECONNREFUSED"
 */
export async function pingRedis(url: string, timeoutMs: number): Promise<string | undefined> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return reasonOf(error);
  } finally {
    client.disconnect();
  }
}
