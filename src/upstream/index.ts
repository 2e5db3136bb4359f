/**
 * The gateway's public API (docs/design.md §11): `createGateway` turns a deployment's `servers:` into an extension whose
 * toolsets are other people's MCP servers, plus the shapes it takes and reports. The CLI hands it `config.servers`.
 */
export { createGateway } from "./gateway.js";
export type { Gateway, ReconfigureReport } from "./gateway.js";
export type { GatewayAuthConfig, GatewayOptions, GatewayServerConfig, RetryOptions } from "./gateway-options.js";
export type { ServerLinkStatus as GatewayServerStatus } from "./server-link.js";
export type { ServerChanges } from "./server-changes.js";
export type { UpstreamCallInfo, UpstreamCallObserver } from "./calls/call-observer.js";
