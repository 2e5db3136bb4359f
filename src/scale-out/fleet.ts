/**
 * One instance's part in a fleet of `mcp-host serve` instances behind a load balancer (docs/scale-out.md, config
 * `scaleOut:`): its name, which starts every 2025-era session id it makes so a proxy can route a session back to it;
 * and, with `scaleOut.redis`, what the instances share — the events listeners hear, the callers' rate counts, which
 * sealed request states were used, and the MCP tasks (their store, signals and changes). The
 * HTTP app takes it as an option and asks it for each selection's event bus; the state key needs no fleet object (it
 * goes to the host as `requestStateKey`). Made only when the config has `scaleOut`; Redis is loaded only with `redis`.
 */
import type { ServerEventBus } from "@modelcontextprotocol/server";
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import { FleetClaims } from "./fleet-claims.js";
import { FleetEventBus } from "./fleet-event-bus.js";
import { FleetEvents } from "./fleet-events.js";
import { FleetRate } from "./fleet-rate.js";
import { FleetTasks } from "./fleet-tasks.js";
import { openRedisLink, type RedisLink } from "./redis-link.js";
import { defined } from "../defined.js";

export type { FleetEvent } from "./fleet-events.js";
export type { FleetTask, FleetTaskSignal } from "./fleet-task.js";

/** What the fleet's shared parts look like now, for `/healthz`. */
export interface FleetStatus {
  instance: string;
  /** Present with `scaleOut.redis`. */
  redis?: "up" | "down";
}

/** One instance's view of the fleet. */
export interface Fleet {
  /** This instance's name (letters, digits, `-` and `_`). */
  readonly instanceId: string;
  /**
   * Events shared with the other instances; absent without Redis. What `createHostApp` plugs in (`scaleOut`).
   * @internal
   */
  readonly events?: FleetEvents;
  /**
   * The callers' rate counted for the whole fleet; absent without Redis. What `createHostApp` plugs in.
   * @internal
   */
  readonly rate?: FleetRate;
  /**
   * The single-use ids of sealed `requestState`s, claimed for the whole fleet; absent without Redis. What the host
   * takes as `requestStateClaims`.
   * @internal
   */
  readonly claims?: FleetClaims;
  /**
   * The MCP tasks kept in Redis for the whole fleet; absent without Redis. What the host takes as `tasks.store`.
   * @internal
   */
  readonly tasks?: FleetTasks;
  /** The event bus of one selection's modern listen streams (the SDK's in-memory one without Redis: undefined). */
  eventBusFor(toolsets: readonly string[], onerror?: (error: Error) => void): ServerEventBus | undefined;
  status(): FleetStatus;
  close(): Promise<void>;
}

export interface FleetOptions {
  instanceId: string;
  redis?: { url: string; prefix: string };
  logger: Logger;
  /** What the fleet's own time windows run on (default: the system clock; give it the host's, `host.clock`). */
  clock?: Clock;
  /** The bounds of the tasks kept in Redis: an owner's most unfinished tasks, and how many this instance lists. */
  tasks?: { maxPerCaller?: number; maxKept?: number };
}

/**
 * @example
 * const fleet = await createFleet({ instanceId: "mcp-a", redis: { url, prefix: "mcp-host:" }, logger });
 * await listenHost(host, { scaleOut: fleet }); … await fleet.close();
 */
export async function createFleet(options: FleetOptions): Promise<Fleet> {
  const { instanceId, logger } = options;
  let link: RedisLink | undefined;
  let events: FleetEvents | undefined;
  let rate: FleetRate | undefined;
  let claims: FleetClaims | undefined;
  let tasks: FleetTasks | undefined;
  if (options.redis !== undefined) {
    link = await openRedisLink({
      url: options.redis.url,
      connectionName: `mcp-host:${instanceId}`,
      logger,
      ...defined({ clock: options.clock }),
    });
    events = new FleetEvents(link, { prefix: options.redis.prefix, logger });
    rate = new FleetRate(link, options.redis.prefix);
    claims = new FleetClaims(link, options.redis.prefix);
    tasks = new FleetTasks(link, {
      prefix: options.redis.prefix,
      instanceId,
      logger,
      ...defined({ clock: options.clock, maxPerCaller: options.tasks?.maxPerCaller, maxKept: options.tasks?.maxKept }),
    });
  }
  const shared = link;
  return {
    instanceId,
    ...defined({ events, rate, claims, tasks }),
    eventBusFor(toolsets, onerror) {
      const followed = events;
      return followed === undefined ? undefined : new FleetEventBus(() => followed.followOffers(toolsets), onerror);
    },
    status: () => ({ instance: instanceId, ...(shared === undefined ? {} : { redis: shared.up ? "up" : "down" }) }),
    close: async () => {
      await tasks?.close();
      await shared?.close();
    },
  };
}

/**
 * The name an instance has when `scaleOut.instanceId` is not given: its host name's first label, with every character
 * an id may not have made a `-` (a container's or pod's host name is usually its own already).
 * @example
 * instanceIdFromHostName("web-1.example.com") // "web-1"
 */
export function instanceIdFromHostName(hostName: string): string {
  const label = hostName.split(".")[0] ?? "";
  const cleaned = label.replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 64);
  return cleaned === "" ? "mcp-host" : cleaned;
}
