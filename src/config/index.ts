/**
 * The deployment configuration (docs/design.md §12): one file, found in the project folder or named with
 * `--config`, turned into one validated, defaulted, resolved plain object. A low layer: it imports only errors,
 * the logger types and the toolset-name rule, and never reads `process.env` itself.
 */
export { loadConfig } from "./load-config.js";
export type { LoadConfigOptions, LoadedConfig } from "./load-config.js";
export { withOverrides } from "./overrides.js";
export type { ConfigOverrides } from "./overrides.js";
export { checkAuthKinds } from "./auth-kinds.js";
export { ConfigError, formatConfigProblems } from "./problems.js";
export type { ConfigProblem } from "./problems.js";
export { deploymentConfigSchema } from "./schema.js";
export type { DeploymentConfig, DeploymentConfigInput } from "./schema.js";
export { BUILT_IN_AUTH_KINDS } from "./schema-servers.js";
export type { CommonServerConfig, HttpServerConfig, ServerAuthConfig, ServerConfig, StdioServerConfig } from "./schema-servers.js";
export type { AuthConfig } from "./schema-auth.js";
export { RANGES as CONFIG_RANGES } from "./schema-parts.js";
export { configSearchPlaces } from "./config-explorer.js";
