/**
 * The `mcp-host/gateway` entry: `createGateway`, the extension that mounts other people's MCP servers (stdio
 * subprocesses, remote Streamable HTTP) as toolsets of a host (docs/gateway.md) — what `mcp-host serve` makes from
 * the config file's `servers`. Exactly what is exported here, by name.
 */
export { createGateway } from "../upstream/gateway.js";
export type { Gateway, ReconfigureReport } from "../upstream/gateway.js";
export type { GatewayAuthConfig, GatewayOptions, GatewayServerConfig, RetryOptions } from "../upstream/gateway-options.js";
export type { ServerLinkStatus as GatewayServerStatus } from "../upstream/server-link.js";
export type { ServerChanges } from "../upstream/server-changes.js";
export type { UpstreamCallInfo, UpstreamCallObserver } from "../upstream/calls/call-observer.js";
export type { Clock, ClockTimer } from "../clock.js";
export type { SecretRedactor } from "../secret-redactor.js";
