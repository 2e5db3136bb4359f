/**
 * The `mcp-host/testing` entry, for an extension author's tests: build a host from extensions and talk to it in
 * process with the MCP SDK's own client, on a clock the test moves by hand. It loads the MCP server SDK and the
 * host core, and nothing a deployment needs (no jose, express, cors, pino or OpenTelemetry: a test of
 * `entries.test.ts` pins the module count). Exactly what is exported here, by name.
 */
export { buildHost } from "../host/build-host.js";
export type { HostInput } from "../host/build-host.js";
export { connectInProcess } from "../host/in-process.js";
export type { InProcessConnection, InProcessOptions } from "../host/in-process.js";
export type { McpHost, BuildOptions, HostContents, Listener, OfferChange, OfferedTool } from "../host/host.js";
export type { HostOptions } from "../host/host-options.js";
export type { BuiltServer } from "../host/built-server.js";
export type { HostDescription, ToolsetDescription, ExtensionDescription, SelectionModifiers, UnavailableDescription } from "../host/describe.js";
export type { ExtensionStatus, FailureRecord } from "../host/extensions/extension-record.js";
export type { ToolCallLimits } from "../host/protocol/tool-limits.js";
export type { SecretRedactor } from "../secret-redactor.js";
export { parseSelection } from "../host/selection.js";
export type { Selection, ParseSelectionOptions } from "../host/selection.js";
export { createManualClock } from "../manual-clock.js";
export type { ManualClock } from "../manual-clock.js";
export type { Clock, ClockTimer } from "../clock.js";
export { memoryLogger, silentLogger } from "../logger.js";
export type { Logger, LogRecord } from "../logger.js";
