/**
 * What every command that serves or describes shares: read the deployment's config (or its defaults), lay the
 * command-line flags over it, find and load the extensions, register them into a host and start it. The config and
 * the flags become plain option objects here; the host core never reads files or the environment itself. One
 * SecretRedactor, made from the config's resolved secrets, goes to everything that writes or answers: the logger,
 * stderr itself, the gateway (which teaches it the credentials it obtains) and the host's reports.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkAuthKinds, ConfigError, type ConfigOverrides, type DeploymentConfig, loadConfig, withOverrides } from "../config/index.js";
import { McpHostError } from "../errors.js";
import { buildHost } from "../host/build-host.js";
import type { McpHost } from "../host/host.js";
import { extensionNamesFromEnv, loadExtensions } from "../host/loading/load-extensions.js";
import type { LoadResult } from "../host/loading/load.js";
import { assertNoUnknownToolsets, parseSelection } from "../host/selection.js";
import type { Logger, LogLevel } from "../logger.js";
import { createObservability, type Observability } from "../observe/observability.js";
import { createPinoLogger } from "../observe/pino-logger.js";
import { routeConsoleTo } from "../observe/console-capture.js";
import { redactWrites } from "../observe/redacted-writes.js";
import { createSecretRedactor, type SecretRedactor } from "../secret-redactor.js";
import type { Gateway } from "../upstream/index.js";
import type { CliSettings } from "./args.js";
import { taskOptionsOf, toolLimitsOf } from "./listen-options.js";
import { literalEnvSecrets, literalSecretWarning } from "./literal-secrets.js";
import { fleetFor, fleetTaskOptions, scaleOutSecrets } from "./scale-out.js";
import type { Fleet } from "../scale-out/fleet.js";
import { warnWhenNothingFound } from "./startup-warnings.js";
import { mcpHostVersion } from "./version.js";
import { defined } from "../defined.js";

export { mcpHostVersion } from "./version.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface Deployment {
  config: DeploymentConfig;
  /** The config file read, or undefined when none was found (the defaults apply). */
  source?: string;
  /** Every value a secret reference resolved to (for redaction). */
  secrets: readonly string[];
  /** What every output of the deployment goes through: the config's secrets and the credentials learned since. */
  redactor: SecretRedactor;
  host: McpHost;
  logger: Logger;
  /** The gateway serving the config's `servers:` (present when the config has any). */
  gateway?: Gateway;
  /** The upstream auth kinds the loaded extensions contribute (checked again on a reload). */
  authKinds: readonly string[];
  /** Logs, metrics and traces of what the deployment serves (the config's `logging`, `metrics`, `tracing`). */
  observability: Observability;
  /** This instance's part in the fleet (`scaleOut:`), for `serve` (loadDeployment's `joinFleet`). */
  fleet?: Fleet;
}

/** The deployment's name and version: the config's, else its package.json's, else mcp-host's. */
function identity(config: DeploymentConfig, cwd: string): { name: string; version: string } {
  let pkg: { name?: string; version?: string } = {};
  try {
    pkg = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as typeof pkg;
  } catch {
    // No package.json (or an unreadable one, which discovery reports): the names below apply.
  }
  return { name: config.name ?? pkg.name ?? "mcp-host", version: config.version ?? pkg.version ?? mcpHostVersion() };
}

/** The flags that override the config file, as a partial config. */
export function overridesOf(settings: CliSettings, selectionArgument: boolean): ConfigOverrides {
  const http: Record<string, unknown> = {};
  if (settings.port !== undefined) http.port = settings.port;
  if (settings.host !== undefined) http.host = settings.host;
  if (settings.path !== undefined) http.path = settings.path;
  if (settings.legacy !== undefined) http.legacy = settings.legacy;
  if (settings.allowedHosts) http.allowedHosts = settings.allowedHosts;
  if (settings.allowedOrigins) http.allowedOrigins = settings.allowedOrigins;
  if (settings.cors) http.cors = { origin: settings.cors.includes("*") ? "*" : settings.cors };
  const selection: Record<string, unknown> = {};
  if (settings.strict) selection.strict = true;
  if (selectionArgument && settings.argument !== undefined) selection.default = settings.argument;
  const overrides: Record<string, unknown> = {};
  if (Object.keys(http).length > 0) overrides.http = http;
  if (Object.keys(selection).length > 0) overrides.selection = selection;
  return overrides as ConfigOverrides;
}

function checkFolder(cwd: string): void {
  const isFolder = existsSync(cwd) && statSync(cwd).isDirectory();
  if (!isFolder) throw new McpHostError("CLI_USAGE", `--cwd ${cwd} is not a folder; pass the project folder that holds package.json (and the config file)`);
}

/** Which extensions to load: the flag, else the environment, else the config's `extensions.include`. */
function namesOf(settings: CliSettings, env: Env, config: DeploymentConfig): string[] | undefined {
  const names = settings.extensions ?? extensionNamesFromEnv(env) ?? config.extensions.include;
  return names.length > 0 ? names : undefined;
}

async function loadWanted(cwd: string, config: DeploymentConfig, names: string[] | undefined, logger: Logger): Promise<LoadResult> {
  if (!config.extensions.discover) return { extensions: [], failures: [] };
  const loaded = await loadExtensions({ cwd, logger, options: config.extensions.options, ...(names ? { names } : {}) });
  const excluded = new Set(config.extensions.exclude);
  if (excluded.size === 0) return loaded;
  return { extensions: loaded.extensions.filter((e) => !excluded.has(e.extension.name) && !excluded.has(e.packageName)), failures: loaded.failures };
}

/** The gateway for the config's `servers:`, or undefined when there are none. */
export async function gatewayFor(
  config: DeploymentConfig,
  logger: Logger,
  observability?: Observability,
  redactor?: SecretRedactor,
): Promise<Gateway | undefined> {
  if (Object.keys(config.servers).length === 0) return undefined;
  return gatewayOver(config.servers, config, logger, observability, redactor);
}

/** A gateway over `servers` with the config's other gateway settings — also over none (a reload adds the first ones). */
export async function gatewayOver(
  servers: DeploymentConfig["servers"],
  config: DeploymentConfig,
  logger: Logger,
  observability?: Observability,
  redactor?: SecretRedactor,
): Promise<Gateway> {
  // Imported only when there are servers: the registry and the SDK client are not on a plain deployment's way.
  const { createGateway } = await import("../upstream/index.js");
  return createGateway({
    servers,
    startupTimeoutMs: config.startupTimeoutMs,
    remoteServers: config.remoteServers,
    // What an upstream may answer is bounded as what a client may send and get: the same keys.
    maxResultBytes: config.tools.maxResultBytes,
    maxJsonDepth: config.http.maxJsonDepth,
    logger: logger.child("gateway"),
    ...(observability === undefined ? {} : { observer: observability.gatewayObserver }),
    ...defined({ redactor }),
  });
}

/** The config's `logging`, `metrics` and `tracing` as the deployment's observability. */
export function observabilityOf(config: DeploymentConfig, logger: Logger): Observability {
  return createObservability({
    logger,
    accessLog: config.logging.access,
    auditLog: config.logging.audit,
    includeArguments: config.logging.includeArguments,
    metrics: config.metrics === undefined ? false : { defaultMetrics: config.metrics.defaultMetrics },
    tracing: config.tracing.enabled,
    version: mcpHostVersion(),
  });
}

/**
 * Fails a serving command's start-up when the gateway could not bring its `required` servers up (docs/design.md §11):
 * the host would otherwise serve without them.
 */
export async function refuseGatewayProblems(deployment: Deployment): Promise<void> {
  const problems = deployment.gateway?.problems() ?? [];
  if (problems.length === 0) return;
  await deployment.host.stop().catch(() => {});
  throw problems.length === 1 ? problems[0]! : new McpHostError(problems[0]!.code, problems.map((p) => p.message).join("; "));
}

/**
 * The config file (found, or `--config`) as loadConfig reads it, with the command line's overrides applied. A
 * `redactor` learns its secrets at once (a reload may bring new ones: a rotated `${file:…}`).
 */
export async function readDeploymentConfig(
  settings: CliSettings,
  env: Env,
  selectionArgument: boolean,
  redactor?: SecretRedactor,
): Promise<Awaited<ReturnType<typeof loadConfig>>> {
  const loaded = await loadConfig({ cwd: resolve(settings.cwd), env, ...(settings.config ? { file: resolve(settings.config) } : {}) });
  redactor?.learn(...loaded.secrets, ...scaleOutSecrets(loaded.config), ...literalEnvSecrets(loaded.config, loaded.secrets).map((l) => l.value));
  return { ...loaded, config: withOverrides(loaded.config, overridesOf(settings, selectionArgument)) };
}

/** Refuses a config whose servers name an auth kind neither built in nor contributed by a loaded extension. */
export function refuseUnknownAuthKinds(read: { config: DeploymentConfig; source?: string }, kinds: readonly string[]): void {
  const problems = checkAuthKinds(read.config, kinds);
  if (problems.length > 0) throw new ConfigError(problems, read.source ? { source: read.source } : {});
}

/**
 * @example
 * const { host, config } = await loadDeployment(settings, process.env, { logLevel: "info", selectionArgument: true });
 */
export async function loadDeployment(
  settings: CliSettings,
  env: Env,
  options: { logLevel: LogLevel; selectionArgument: boolean; joinFleet?: boolean },
): Promise<Deployment> {
  const cwd = resolve(settings.cwd);
  checkFolder(cwd);
  const loaded = await readDeploymentConfig(settings, env, options.selectionArgument);
  const { config } = loaded;
  const literals = literalEnvSecrets(config, loaded.secrets);
  const redactor = createSecretRedactor([...loaded.secrets, ...scaleOutSecrets(config), ...literals.map((l) => l.value)]);
  // What reaches stderr around the logger (the SDK's console lines, an extension's console.error, the final error).
  redactWrites(process.stderr, redactor);
  const logger = createPinoLogger({
    level: settings.logLevel ?? config.logging.level ?? options.logLevel,
    format: settings.logFormat ?? config.logging.format,
    redactor,
  });
  // What libraries print (the SDK's own warnings) becomes log lines too, never raw text on stderr or stdout.
  routeConsoleTo(logger);
  for (const literal of literals) logger.warn(literalSecretWarning(literal), { code: "MCP_CREDENTIALS_INLINE", key: literal.key });
  const observability = observabilityOf(config, logger);
  const names = namesOf(settings, env, config);
  const extensions = await loadWanted(cwd, config, names, logger);
  warnWhenNothingFound(cwd, extensions, logger);
  const kinds = extensions.extensions.flatMap((e) => Object.keys(e.extension.authStrategies ?? {}));
  refuseUnknownAuthKinds(loaded, kinds);
  const { name, version } = identity(config, cwd);
  const gateway = await gatewayFor(config, logger, observability, redactor);
  // `serve` takes part in the fleet (`scaleOut:`): its Redis also records which sealed request states were used and
  // keeps the tasks.
  const fleet = options.joinFleet ? await fleetFor(config, logger) : undefined;
  // The gateway joins as one more extension; the load failures go along either way, so a named extension that did not
  // load is a failed extension in every report (check, /healthz, the banner) whether or not the config has servers.
  const gatewayEntry = gateway ? [{ extension: gateway.extension, source: "the config's servers", packageName: "mcp-host" }] : [];
  const host = buildHost(
    { extensions: [...extensions.extensions, ...gatewayEntry], failures: extensions.failures },
    {
      name,
      version,
      logger,
      extensionOptions: config.extensions.options,
      toolLimits: toolLimitsOf(config),
      // In a fleet with Redis, tasks are kept there: any instance answers for them (scale-out.ts).
      tasks: fleetTaskOptions(taskOptionsOf(config), config, fleet),
      ...defined({ searchAbove: config.selection.searchAbove }),
      observer: observability.hostObserver,
      redactor,
      // In a fleet every instance signs requestState with the same key, so a call's next round may land on any of them.
      ...defined({ requestStateKey: config.scaleOut?.stateKey, requestStateClaims: fleet?.claims }),
      ...(config.instructions ? { instructions: config.instructions } : {}),
    },
  );
  await host.start();
  if (config.selection.strict && config.selection.default !== undefined) {
    const selection = parseSelection(config.selection.default, { ignoreKeys: config.selection.ignoreKeys });
    try {
      assertNoUnknownToolsets(
        host.activeFor(selection).unknown,
        host.declaredToolsets().map((t) => t.name),
      );
    } catch (error) {
      await host.stop().catch(() => {});
      throw error;
    }
  }
  return {
    config,
    ...(loaded.source ? { source: loaded.source } : {}),
    secrets: loaded.secrets,
    redactor,
    host,
    logger,
    authKinds: kinds,
    observability,
    ...(gateway ? { gateway } : {}),
    ...(fleet ? { fleet } : {}),
  };
}
