/**
 * The options `buildHost` takes. The host core never reads files or environment variables: the CLI and the
 * config loader turn those into this object.
 */
import type { SharedClaims } from "./protocol/used-states.js";
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import type { SecretRedactor } from "../secret-redactor.js";
import type { ServerFactory } from "./built-server.js";
import type { ToolCallLimits } from "./protocol/tool-limits.js";
import type { HostObserver } from "./observer.js";
import type { TaskLimits } from "../tasks/task-board.js";
import type { TaskStore } from "../tasks/task-store.js";

export interface HostOptions {
  /** The server name clients see. */
  name: string;
  version?: string;
  /** The host's own instructions, sent before every active toolset's. */
  instructions?: string;
  logger?: Logger;
  /** Add the `list_server_toolsets` tool to every build (default true). */
  toolsetsTool?: boolean;
  /** Default timeout of a tool call (default 60 000 ms). */
  toolTimeoutMs?: number;
  /** Timeout of each extension's setup (default 10 000 ms). */
  setupTimeoutMs?: number;
  /**
   * Serve a selection in tool-search mode — only `find_tools` and `call_tool` listed — when it has more than this many
   * tools, unless its URL says `search=0` (config `selection.searchAbove`). Absent: only `?search` turns it on.
   */
  searchAbove?: number;
  /** Most builds kept in the cache (default 256). */
  maxBuilds?: number;
  /** Per-extension options handed to `setup` as `ctx.options` (keyed by extension name). */
  extensionOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Wraps every selection's MCP handler (CORS, auth…). Default: the handler as it is. */
  serverFactory?: ServerFactory;
  /**
   * Key (32+ bytes) that signs multi-round-trip request state. Default: a random key per process — give every
   * process of a multi-process deployment the same key so a retry may land on any of them.
   */
  requestStateKey?: string | Uint8Array;
  /**
   * Where a multi-process deployment records which sealed `requestState`s were used, so each is accepted once across
   * every process (the fleet's Redis, `scaleOut.redis`). Each process also remembers what it saw itself.
   */
  requestStateClaims?: SharedClaims;
  /** Debounce of list-changed notifications after an offer change (default 50 ms). */
  listChangedDebounceMs?: number;
  /**
   * Warn (`EVENT_LOOP_BLOCKED`) when the event loop is blocked at least this long, naming the tools that ran on the
   * main thread meanwhile; `false` turns the monitor off. Default 500 ms.
   */
  eventLoopWarnMs?: number | false;
  /**
   * What one tool may take (config `tools:`): calls at once (default 64, then a brief queue of 1000 ms, then a
   * `TOOL_CONCURRENCY_LIMIT` result) and the largest result sent (default 8 MiB, else `TOOL_RESULT_TOO_LARGE`).
   */
  toolLimits?: ToolCallLimits;
  /**
   * Hears every MCP request the host answers and every build-cache lookup (logs, metrics, traces: see
   * `createObservability`). Absent: nobody observes, and requests pay nothing for it.
   */
  observer?: HostObserver;
  /**
   * The deployment's secrets, kept out of what the host reports (extension errors, unavailable upstreams: `/toolsets`,
   * `/healthz`, `list_server_toolsets`, the operator page). The CLI passes the one its logger and gateway use.
   */
  redactor?: SecretRedactor;
  /**
   * Where every deadline and timer of the host reads the time: tool and setup timeouts, the tool queue, the
   * list-changed debounce, and — through the host — the HTTP layer's (sessions, caller rates, shutdown drain) and the
   * gateway's (`ctx.clock`). Default: the system clock; a test passes `createManualClock()` from `mcp-host/testing`
   * and moves time with `advance(ms)`.
   */
  clock?: Clock;
  /** Long-running tools as MCP tasks (docs/tasks.md): where tasks are kept, and their bounds. */
  tasks?: HostTaskOptions;
}

/** How a host keeps its MCP tasks (config `tasks:`; docs/tasks.md). */
export interface HostTaskOptions {
  /** Where tasks are kept; default: in this process's memory. A fleet gives Redis's (`scaleOut.redis`). */
  store?: TaskStore;
  /** This instance's name, on the tasks it runs (default `"local"`; a fleet's instance id). */
  instance?: string;
  /** Unfinished tasks per caller, TTLs, poll interval, lease; see `TaskLimits`. */
  limits?: Partial<TaskLimits>;
  /** Tasks kept in memory at once, finished ones first to go (default 10 000; the in-memory store only). */
  maxTasks?: number;
}
