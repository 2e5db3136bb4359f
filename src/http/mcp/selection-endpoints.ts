/**
 * The endpoint of every selection one HTTP app has served, kept per selection so listen streams and legacy sessions
 * keep hearing list changes across rebuilds, and bounded like the build cache — the least recently used idle
 * endpoint goes first; one with a request in flight or an open stream never does. It also tells each selection's
 * listeners what changed — in a fleet with Redis, what changed on any instance (docs/scale-out.md): a change raised
 * here is told here at once and sent to the fleet; one another instance raised is told here as if raised here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BuildCore } from "../../host/build/compiled-build.js";
import type { McpHost } from "../../host/host.js";
import { toolsetsBehind, type BuildId } from "../../host/build/build-id.js";
import type { HostServing } from "../../host/serving-port.js";
import type { HostAppOptions } from "../http-options.js";
import type { RequestFacts } from "../edge/request-facts.js";
import { HTTP_DEFAULTS, shareDefault } from "../edge/http-defaults.js";
import { sessionIdsFor } from "./legacy-serving.js";
import { LegacySessionStore } from "./legacy-sessions.js";
import { SelectionEndpoint, type EndpointContext } from "./selection-endpoint.js";
import { FAST_PATH_SDK_VERSIONS, fastPathSdkProven, installedSdkVersion } from "./fast-path-sdk.js";
import type { Logger } from "../../logger.js";
import { defined } from "../../defined.js";

/**
 * Whether the fast path serves: asked for (`http.fastPath`, default on) and the installed SDK one it was proven on.
 * Says which once: at debug when it is on or turned off, at info when the SDK keeps it off (the entry serves all).
 */
function fastPathOn(asked: boolean | undefined, logger: Logger): boolean {
  if (asked === false) {
    logger.debug("the fast path is off (http.fastPath: false, or MCP_HOST_FAST_PATH=off for the CLI): every request goes through the SDK's entry");
    return false;
  }
  if (fastPathSdkProven(installedSdkVersion())) {
    logger.debug(`the fast path is on (@modelcontextprotocol/server ${installedSdkVersion()})`);
    return true;
  }
  logger.info(
    `the fast path is off: @modelcontextprotocol/server ${installedSdkVersion() ?? "(version unknown)"} is not one it was proven on (${FAST_PATH_SDK_VERSIONS.join(", ")}); every request goes through the SDK's entry`,
  );
  return false;
}

export class SelectionEndpoints {
  readonly sessions: LegacySessionStore;
  private readonly endpoints = new Map<string, SelectionEndpoint>();
  private readonly context: EndpointContext;
  private readonly maxEndpoints: number;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    host: McpHost,
    options: HostAppOptions,
    private readonly serving: HostServing,
  ) {
    const logger = host.logger.child("http");
    this.maxEndpoints = host.options.maxBuilds ?? 256;
    this.sessions = new LegacySessionStore({
      idleTtlMs: options.sessionIdleTtlMs ?? HTTP_DEFAULTS.sessionIdleTtlMs,
      maxSessions: options.maxSessions ?? HTTP_DEFAULTS.maxSessions,
      maxSessionsPerCaller: options.maxSessionsPerCaller ?? shareDefault("maxSessionsPerCaller", options),
      streamMaxAgeMs: options.streamMaxAgeMs ?? HTTP_DEFAULTS.streamMaxAgeMs,
      logger,
      clock: options.clock ?? host.clock,
    });
    const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
    const subscriptionLimits = {
      maxSubscriptions: options.maxSubscriptionsPerSession ?? HTTP_DEFAULTS.maxSubscriptionsPerSession,
      maxUriLength: options.maxSubscriptionUriLength ?? HTTP_DEFAULTS.maxSubscriptionUriLength,
    };
    const fleet = options.scaleOut;
    const events = fleet?.events;
    this.context = {
      legacy: options.legacy ?? "stateful",
      legacyServing: {
        sessions: this.sessions,
        serving: this.serving,
        logger,
        subscriptionLimits,
        newSessionId: sessionIdsFor(fleet?.instanceId),
        ...(fleet === undefined ? {} : { fleet: { instanceId: fleet.instanceId, ...defined({ events }), misrouted: new Set<string>() } }),
      },
      subscriptionLimits,
      serving: this.serving,
      logger,
      maxBodyBytes,
      tasks: host.tasks.store,
      fastPath: fastPathOn(options.fastPath, logger),
      ...defined({ fleet }),
    };
    this.unsubscribe = [
      host.onOfferChange((change) => {
        this.offerChanged(change.toolsets);
        events?.raise({ kind: "offer", ...defined({ toolsets: change.toolsets }) });
      }),
      host.onResourceUpdated((uri) => {
        this.resourceUpdated(uri);
        events?.raise({ kind: "resource", uri });
      }),
    ];
    // What another instance raised is told to this instance's listeners the same way (and not sent on again).
    if (events !== undefined)
      this.unsubscribe.push(events.onEvent((event) => (event.kind === "offer" ? this.offerChanged(event.toolsets) : this.resourceUpdated(event.uri))));
  }

  /**
   * Serves one request for `build` on its selection's endpoint.
   * @example
   * await endpoints.serve(build, facts, req, res);
   */
  serve(build: BuildCore, facts: RequestFacts, req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.endpointFor(build.id).handle(build, facts, req, res);
  }

  /** The entries of what clients made this app keep: endpoints, legacy sessions, their subscriptions and callers. */
  held(): Record<string, number> {
    let subscriptions = 0;
    for (const session of this.sessions.all()) subscriptions += session.subscriptions.size;
    return {
      selection_endpoints: this.endpoints.size,
      legacy_sessions: this.sessions.size,
      legacy_subscriptions: subscriptions,
      session_callers: this.sessions.callers,
    };
  }

  /** Ends every legacy session and modern stream, and detaches from the host. */
  async close(): Promise<void> {
    for (const stop of this.unsubscribe) stop();
    this.serving.close();
    await this.sessions.closeAll();
    await Promise.all([...this.endpoints.values()].map((e) => e.close()));
    this.endpoints.clear();
  }

  private endpointFor(id: BuildId): SelectionEndpoint {
    const { key } = id;
    const existing = this.endpoints.get(key);
    if (existing) {
      this.endpoints.delete(key);
      this.endpoints.set(key, existing);
      return existing;
    }
    this.makeRoom();
    const endpoint = new SelectionEndpoint(id, this.context);
    this.endpoints.set(key, endpoint);
    return endpoint;
  }

  /** Lets the least recently used idle endpoints go until one more fits (busy ones stay, even over the bound). */
  private makeRoom(): void {
    // A legacy session does not need its endpoint (its transport lives in the session store); an open stream does.
    for (const [key, endpoint] of this.endpoints) {
      if (this.endpoints.size < this.maxEndpoints) return;
      if (endpoint.busy) continue;
      this.endpoints.delete(key);
      void endpoint.close();
    }
  }

  /** Tells this instance's listeners of the selections with any of `toolsets` (undefined: all) that their lists changed. */
  private offerChanged(toolsets: readonly string[] | undefined): void {
    const touched = toolsets ? new Set(toolsets) : undefined;
    // A build depends on its active toolsets and on those its view picks single tools from.
    const affects = (id: BuildId) => !touched || toolsetsBehind(id).some((t) => touched.has(t));
    for (const endpoint of this.endpoints.values()) {
      if (!affects(endpoint.id)) continue;
      endpoint.modern.notify.toolsChanged();
      endpoint.modern.notify.promptsChanged();
      endpoint.modern.notify.resourcesChanged();
    }
    for (const session of this.sessions.all()) {
      if (!affects(session.served)) continue;
      session.stale = true;
      void Promise.allSettled([session.server.sendToolListChanged(), session.server.sendPromptListChanged(), session.server.sendResourceListChanged()]);
    }
  }

  private resourceUpdated(uri: string): void {
    for (const endpoint of this.endpoints.values()) endpoint.modern.notify.resourceUpdated(uri);
    for (const session of this.sessions.all()) {
      if (session.subscriptions.has(uri)) void session.server.sendResourceUpdated({ uri }).catch(() => {});
    }
  }
}
