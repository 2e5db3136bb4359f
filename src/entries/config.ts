/**
 * The `mcp-host/config` entry: find, read and check a deployment's config file the way `mcp-host serve` does
 * (docs/config.md) — `loadConfig` for a file, `validateConfig` for a value you already hold. Exactly what is
 * exported here, by name.
 */
export { loadConfig } from "../config/load-config.js";
export type { LoadConfigOptions, LoadedConfig } from "../config/load-config.js";
export { validateConfig } from "../config/validate.js";
export { withOverrides } from "../config/overrides.js";
export { checkAuthKinds } from "../config/auth-kinds.js";
export type { ConfigOverrides, DeepPartial } from "../config/overrides.js";
export { ConfigError, formatConfigProblems } from "../config/problems.js";
export type { ConfigProblem, KeyPath, PathProblem } from "../config/problems.js";
export type { DeploymentConfig, DeploymentConfigInput } from "../config/schema.js";
export type { CommonServerConfig, HttpServerConfig, ServerAuthConfig, ServerConfig, StdioServerConfig } from "../config/schema-servers.js";
export type { AuthConfig } from "../config/schema-auth.js";
