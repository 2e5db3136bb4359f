/**
 * mcp-host's root entry: the extension contract, for extension authors. Exactly what is exported here, by name,
 * and nothing heavier than the contract: importing it loads no express, no ajv, no MCP server SDK, so an
 * extension package stays light. Deployments import `mcp-host/host`; agents using the registry `mcp-host/registry`.
 */
export { defineExtension, defineTool } from "./extension/define.js";
export { validateExtension } from "./extension/validate.js";
export { TOOLSET_NAME_PATTERN, toolsetNameProblem } from "./extension/toolset-name.js";
export { textResult, jsonResult, errorResult } from "./extension/results.js";
export { invalidParams, resourceNotFound, isRequestError } from "./extension/request-errors.js";
export type { RequestError, RequestErrorKind } from "./extension/request-errors.js";
export { inputRequired, inputResponse, acceptedContent } from "./extension/input-required.js";
export type { InputRequest, InputRequiredBuilder, InputRequiredSpec, ElicitSpec, InputResponses, InputResponseView } from "./extension/input-required.js";
export type {
  McpExtension,
  ExtensionFactory,
  ExtensionContext,
  OfferChanges,
  DynamicOffer,
  UnavailableReport,
  ToolsetSpec,
  ToolSpec,
  ToolHandler,
  ToolResult,
  ToolContext,
  TaskControl,
  TaskSupport,
  RequestContext,
  SelectionView,
  ResourceSpec,
  ResourceTemplateSpec,
  PromptSpec,
  SkillSpec,
  ServedSkill,
  SkillFileContent,
  CompleteFn,
  ToolExtension,
  ServerDraft,
  DraftTool,
  AuthStrategy,
  IsolationOptions,
  IsolationLimits,
} from "./extension/types.js";
export type { JsonSchemaObject, SchemaInput, InferArgs } from "./extension/schema-types.js";

export { McpHostError, isMcpHostError, ERROR_CODES } from "./errors.js";
export type { McpHostErrorCode, McpHostErrorDetails } from "./errors.js";
export { createLogger, silentLogger, memoryLogger, formatLogRecord } from "./logger.js";
export type { Logger, LogLevel, LogRecord, LogData } from "./logger.js";
export type { Clock, ClockTimer } from "./clock.js";
