/**
 * One configured server as the registry's ServerSpec: stdio or http by its fields, its registry options carried
 * over one to one, its credentials resolved, and — always — the server-to-client request kinds declared, so an
 * upstream that asks its client (sampling, elicitation, roots) can be answered by the downstream client of the call.
 */
import { McpHostError } from "../errors.js";
import { ServerSpec, type ServerOptions, type ServerSpecification } from "../registry/index.js";
import { upstreamCredentials, type CredentialDeps } from "./credentials/upstream-credentials.js";
import type { GatewayServerConfig } from "./gateway-options.js";
import { defined } from "../defined.js";

/** The transport a server entry means: as written, else stdio for a command and http for a URL. */
export function transportOf(config: GatewayServerConfig): "stdio" | "http" {
  return config.transport ?? (config.command !== undefined ? "stdio" : "http");
}

function commonOptions(config: GatewayServerConfig): ServerOptions {
  return {
    ...defined({
      timeoutMs: config.timeoutMs,
      maxTotalTimeoutMs: config.maxTotalTimeoutMs,
      probeTimeoutMs: config.probeTimeoutMs,
      approval: config.approval,
      unannotated: config.unannotated,
      deniedTools: config.deniedTools,
      era: config.era,
      structuredContent: config.structuredContent,
    }),
    // The gateway relays these to the client of the call in progress (and refuses them when it cannot).
    accept: ["sampling", "elicitation", "roots"],
  };
}

/**
 * The registry spec of one server; throws McpHostError for a bad entry (never quoting a URL or a secret).
 * @example
 * serverSpecOf("git", { command: "uvx", args: ["mcp-server-git"] }, { strategies: {}, clock: systemClock, redactor }).transport // "stdio"
 */
export function serverSpecOf(name: string, config: GatewayServerConfig, deps: CredentialDeps): ServerSpecification {
  const common = commonOptions(config);
  if (transportOf(config) === "stdio") {
    if (config.url !== undefined || config.auth !== undefined || Object.keys(config.headers ?? {}).length > 0) {
      throw new McpHostError(
        "MCP_TRANSPORT_INVALID",
        `server "${name}": a stdio server takes no url, headers or auth (a subprocess has no connection to authenticate)`,
        {
          server: name,
        },
      );
    }
    return ServerSpec.stdio(name, config.command ?? "", config.args ?? [], {
      ...common,
      ...defined({ env: config.env, cwd: config.cwd, killGraceMs: config.killGraceMs }),
    });
  }
  if (config.command !== undefined || (config.args?.length ?? 0) > 0 || Object.keys(config.env ?? {}).length > 0) {
    throw new McpHostError("MCP_TRANSPORT_INVALID", `server "${name}": an http server takes no command, args or env`, { server: name });
  }
  if (config.url === undefined) throw new McpHostError("MCP_TRANSPORT_INVALID", `server "${name}": an http server needs a url`, { server: name });
  return ServerSpec.http(name, config.url, { ...common, ...upstreamCredentials(name, config, deps) });
}
