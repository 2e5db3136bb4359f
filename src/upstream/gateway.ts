/**
 * `createGateway`: other people's MCP servers served as toolsets (docs/design.md §11), as an ordinary extension built on
 * the public extension API and McpRegistry. Start-up connects every server at once under one deadline; a server that
 * cannot be reached fails it (`required`) or is reported and retried in the background (`optional`). Afterwards the
 * offer follows the upstreams (list changes, servers coming back) and `reconfigure` applies a new `servers:` map
 * live — all through `ctx.replaceOffer`, so listening clients are told once per change.
 */
import { byName, compareNames } from "../compare.js";
import type { Clock } from "../clock.js";
import { McpHostError } from "../errors.js";
import { toolsetNameProblem } from "../extension/toolset-name.js";
import { createSecretRedactor } from "../secret-redactor.js";
import type { ExtensionContext, McpExtension } from "../extension/types.js";
import { GATEWAY_DEFAULTS, type GatewayOptions, type GatewayServerConfig } from "./gateway-options.js";
import { serverChanges, type ServerChanges } from "./server-changes.js";
import { ServerLink, type LinkDeps, type ServerLinkStatus } from "./server-link.js";
import { defined } from "../defined.js";

/** What `reconfigure` applied: the servers added, removed, changed and left alone, and those now unavailable. */
export interface ReconfigureReport extends ServerChanges {
  /** Added or changed servers that are `optional` and could not be reached (retried in the background). */
  unavailable: string[];
}

/** The gateway: an extension to give the host, and the controls the deployment keeps. */
export interface Gateway {
  /** Give this to `buildHost([gateway.extension, …])`. */
  readonly extension: McpExtension;
  /**
   * Applies a new `servers:` map live. Servers added, removed or changed (any field) are applied in one offer change
   * (one notification to listening clients); unchanged servers keep their connection. Refused as a whole — the old
   * servers keep serving — with an McpHostError naming every problem (an unreachable `required` server, a filter
   * matching nothing, an unknown auth kind).
   */
  reconfigure(servers: Readonly<Record<string, GatewayServerConfig>>): Promise<ReconfigureReport>;
  /** Where each server stands, sorted by name. */
  status(): ServerLinkStatus[];
  /**
   * What stopped the last start-up or the last refused `reconfigure`, one error per code (each naming every server
   * it concerns); empty after a success. For `mcp-host check` and for a CLI deciding its exit code.
   */
  problems(): McpHostError[];
}

const HOW_TO_FIX: Partial<Record<string, string>> = {
  MCP_SERVER_UNREACHABLE: "fix the servers or their URLs, or set remoteServers: optional to start without them",
  TOOL_FILTER_MATCHES_NOTHING: "fix the include/exclude patterns",
};

/** One error per code, naming every server it concerns and how to fix it. */
function grouped(problems: readonly McpHostError[]): McpHostError[] {
  const codes = [...new Set(problems.map((p) => p.code))];
  return codes.map((code) => {
    const same = problems.filter((p) => p.code === code);
    const fix = HOW_TO_FIX[code];
    const message = `${same.map((p) => p.message).join("; ")}${fix ? ` (${fix})` : ""}`;
    const servers = [...new Set(same.map((p) => p.server).filter((s): s is string => s !== undefined))];
    return new McpHostError(code, message, {
      ...(servers.length === 1 ? { server: servers[0] } : {}),
      cause: same.length === 1 ? same[0] : new AggregateError(same, `${same.length} servers`),
    });
  });
}

/** Every problem in one error: its code is the first problem's; its message names every server and problem. */
function problemsError(problems: readonly McpHostError[]): McpHostError {
  const groups = grouped(problems);
  if (groups.length === 1) return groups[0]!;
  return new McpHostError(groups[0]!.code, groups.map((g) => `${g.code}: ${g.message}`).join("; "), { cause: new AggregateError(groups, "several problems") });
}

function checkNames(servers: Readonly<Record<string, GatewayServerConfig>>): void {
  for (const name of Object.keys(servers)) {
    const problem = toolsetNameProblem(name);
    if (problem) throw new McpHostError("MCP_SERVER_NAME_INVALID", `server "${name}": its name is its toolset's name, and ${problem}`, { server: name });
  }
}

/**
 * @example
 * const gateway = createGateway({ servers: config.servers, startupTimeoutMs: config.startupTimeoutMs, remoteServers: config.remoteServers });
 * const host = buildHost([gateway.extension, ...extensions], { name: "my-gateway" });
 * await host.start();
 * process.on("SIGHUP", async () => console.log(await gateway.reconfigure((await loadConfig()).config.servers)));
 */
export function createGateway(options: GatewayOptions): Gateway {
  checkNames(options.servers);
  const name = options.name ?? GATEWAY_DEFAULTS.name;
  const startupTimeoutMs = options.startupTimeoutMs ?? GATEWAY_DEFAULTS.startupTimeoutMs;
  const optional = (options.remoteServers ?? GATEWAY_DEFAULTS.remoteServers) === "optional";
  // Given none, the gateway runs on the clock of the host it is set up in (ctx.clock: HostOptions.clock).
  const clockOf = (context: ExtensionContext): Clock => options.clock ?? context.clock;
  const redactor = options.redactor ?? createSecretRedactor();
  let servers: Readonly<Record<string, GatewayServerConfig>> = { ...options.servers };
  const links = new Map<string, ServerLink>();
  let ctx: ExtensionContext | undefined;
  let stopped = false;
  let queue: Promise<unknown> = Promise.resolve();
  let lastProblems: McpHostError[] = [];

  const publish = () => {
    if (!ctx || stopped) return;
    const ordered = [...links.values()].sort(byName);
    ctx.replaceOffer({
      toolsets: ordered.flatMap((l) => l.offer.toolsets),
      tools: ordered.flatMap((l) => l.offer.tools),
      resources: ordered.flatMap((l) => l.offer.resources),
      resourceTemplates: ordered.flatMap((l) => l.offer.resourceTemplates),
      prompts: ordered.flatMap((l) => l.offer.prompts),
      skills: ordered.flatMap((l) => l.offer.skills),
    });
    ctx.reportUnavailable(ordered.flatMap((l) => l.unavailable()));
  };

  const depsOf = (context: ExtensionContext): LinkDeps => ({
    strategies: context.authStrategies(),
    clock: clockOf(context),
    registryLogger: options.logger ?? context.logger,
    logger: context.logger,
    startupTimeoutMs,
    clientInfo: options.clientInfo ?? GATEWAY_DEFAULTS.clientInfo,
    backoff: {
      initialDelayMs: options.retry?.initialDelayMs ?? GATEWAY_DEFAULTS.initialDelayMs,
      maxDelayMs: options.retry?.maxDelayMs ?? GATEWAY_DEFAULTS.maxDelayMs,
    },
    pendingInputTtlMs: options.pendingInputTtlMs ?? GATEWAY_DEFAULTS.pendingInputTtlMs,
    changed: () => publish(),
    redactor,
    ...defined({ observer: options.observer, maxResultBytes: options.maxResultBytes, maxJsonDepth: options.maxJsonDepth }),
  });

  /**
   * Makes and starts the links of `names`, all at once; resolves with them, or throws (after closing them) with
   * every problem. `optional` servers that cannot be reached are kept, reported and retried.
   */
  const open = async (context: ExtensionContext, wanted: Readonly<Record<string, GatewayServerConfig>>): Promise<ServerLink[]> => {
    const deps = depsOf(context);
    const made: ServerLink[] = [];
    const problems: McpHostError[] = [];
    for (const [server, config] of Object.entries(wanted).sort(([a], [b]) => compareNames(a, b))) {
      try {
        made.push(new ServerLink(server, config, deps));
      } catch (error) {
        problems.push(
          error instanceof McpHostError ? error : new McpHostError("CONFIG_INVALID", `server "${server}": ${String(error)}`, { server, cause: error }),
        );
      }
    }
    const outcomes = await Promise.all(made.map((link) => link.start()));
    const unreachable: ServerLink[] = [];
    outcomes.forEach((found, i) => {
      const link = made[i]!;
      for (const problem of found) {
        if (problem.code !== "MCP_SERVER_UNREACHABLE") problems.push(problem);
        else if (optional) {
          if (!unreachable.includes(link)) unreachable.push(link);
          context.logger.warn(`${problem.message}; starting without it and retrying in the background (remoteServers: optional)`, {
            code: "MCP_SERVER_UNREACHABLE",
            server: link.name,
          });
        } else problems.push(problem);
      }
    });
    if (problems.length > 0) {
      await Promise.allSettled(made.map((link) => link.close()));
      lastProblems = grouped(problems);
      throw problemsError(problems);
    }
    for (const link of unreachable) link.retryInBackground();
    lastProblems = [];
    return made;
  };

  const setup = async (context: ExtensionContext) => {
    ctx = context;
    for (const link of await open(context, servers)) links.set(link.name, link);
    publish();
  };

  const dispose = async () => {
    stopped = true;
    const closing = [...links.values()];
    links.clear();
    const results = await Promise.allSettled(closing.map((link) => link.close()));
    const errors = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} upstream server(s) did not close cleanly`);
  };

  const apply = async (next: Readonly<Record<string, GatewayServerConfig>>): Promise<ReconfigureReport> => {
    if (stopped) throw new McpHostError("HOST_NOT_STARTED", `the gateway "${name}" is stopped; build a new host to serve again`);
    checkNames(next);
    const changes = serverChanges(servers, next);
    if (!ctx) {
      servers = { ...next }; // not set up yet: start-up will use these
      return { ...changes, unavailable: [] };
    }
    const wanted = Object.fromEntries([...changes.added, ...changes.changed].map((s) => [s, next[s]!]));
    // All or nothing: every new and changed server is started, off the offer, before any goes live; on any problem
    // `open` has closed them all and throws, and the current map is untouched.
    const opened = await open(ctx, wanted);
    if (stopped) {
      // The host stopped while they started: they must not outlive it.
      await Promise.allSettled(opened.map((link) => link.close()));
      throw new McpHostError("HOST_NOT_STARTED", `the gateway "${name}" stopped while its servers were being reconfigured; nothing was applied`);
    }
    const retired = [...changes.removed, ...changes.changed].map((s) => links.get(s)).filter((l): l is ServerLink => l !== undefined);
    const previous = new Map(links);
    // From here to `publish` nothing awaits, so no request sees a half-swapped map.
    for (const server of changes.removed) links.delete(server);
    for (const link of opened) links.set(link.name, link);
    try {
      publish();
    } catch (error) {
      // The host refused the new offer before changing anything (`replaceOffer` checks first; its one rule, the
      // toolset names, `checkNames` applied above, so no input reaches here): the old links come back, the new ones
      // are closed, as if `open` had refused the map.
      links.clear();
      for (const [server, link] of previous) links.set(server, link);
      await Promise.allSettled(opened.map((link) => link.close()));
      throw error;
    }
    servers = { ...next };
    await Promise.allSettled(retired.map((link) => link.close()));
    const unavailable = opened.filter((l) => l.unavailable().length > 0).map((l) => l.name);
    ctx.logger.info(`reconfigured: ${["added", "removed", "changed"].map((k) => `${k} ${changes[k as keyof ServerChanges].join(", ") || "none"}`).join("; ")}`);
    return { ...changes, unavailable };
  };

  return {
    extension: {
      name,
      description: "Upstream MCP servers, each served as a toolset named after it",
      setupTimeoutMs: startupTimeoutMs + GATEWAY_DEFAULTS.setupMarginMs,
      setup,
      dispose,
    },
    reconfigure(next) {
      const run = queue.then(() => apply(next));
      queue = run.catch(() => undefined);
      return run;
    },
    status: () => [...links.values()].sort(byName).map((l) => l.status()),
    problems: () => [...lastProblems],
  };
}
