/**
 * loadConfig: from a folder (or `--config FILE`) to one validated, defaulted, resolved configuration, or one
 * CONFIG_INVALID error listing every problem. Reading, secret references, the credential rule, the schema and
 * the cross-field rules all run before anything is reported, so a deployment fixes its file in one pass.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { inlineCredentialProblems } from "./credentials.js";
import { ConfigError, sortProblems } from "./problems.js";
import { readConfigFile } from "./read-config-file.js";
import type { DeploymentConfig } from "./schema.js";
import { resolveReferences } from "./secret-refs.js";
import { validateConfig } from "./validate.js";
import { defined } from "../defined.js";

/** Where to look and what to resolve with. The config layer never reads `process.env` itself. */
export interface LoadConfigOptions {
  /** The folder searched for a config file (and nothing above it). */
  cwd: string;
  /** An explicit config file (`--config FILE`), relative to `cwd`; overrides the search. */
  file?: string;
  /** The environment `${env:NAME}` references read (the CLI passes `process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Auth kinds extensions contribute. When given, an unknown `servers.*.auth.kind` fails the load; when not, run
   * `checkAuthKinds` after loading extensions.
   */
  authKinds?: readonly string[];
}

/** A loaded configuration. */
export interface LoadedConfig {
  config: DeploymentConfig;
  /** The file it came from; undefined when none was found (the config is then the defaults). */
  source?: string;
  /** Every value a secret reference resolved to, sorted, so logs and answers can redact them. */
  secrets: string[];
}

function absoluteCwds(config: DeploymentConfig, baseDir: string): DeploymentConfig {
  const servers = Object.fromEntries(
    Object.entries(config.servers).map(([name, server]) => [
      name,
      server.transport === "stdio" && server.cwd !== undefined && !isAbsolute(server.cwd) ? { ...server, cwd: resolve(baseDir, server.cwd) } : server,
    ]),
  );
  return { ...config, servers };
}

/**
 * Finds, reads and validates the deployment configuration.
 * @example
 * const { config, source, secrets } = await loadConfig({ cwd: process.cwd(), env: process.env });
 * config.http.port // 3000 unless the file says otherwise
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const read = await readConfigFile({ cwd: options.cwd, ...defined({ file: options.file }) });
  if (read.problems.length > 0) throw new ConfigError(sortProblems(read.problems), defined({ source: read.source }));
  const baseDir = read.source === undefined ? resolve(options.cwd) : dirname(read.source);
  const raw = read.raw === undefined ? {} : read.raw;
  const inline = inlineCredentialProblems(raw);
  const resolved = await resolveReferences(raw, { env: options.env, baseDir });
  const { config, problems } = validateConfig(resolved.value, {
    earlier: [...inline, ...resolved.problems],
    ...defined({ authKinds: options.authKinds }),
  });
  if (!config) throw new ConfigError(sortProblems(problems), defined({ source: read.source }));
  return { config: absoluteCwds(config, baseDir), ...defined({ source: read.source }), secrets: resolved.secrets };
}
