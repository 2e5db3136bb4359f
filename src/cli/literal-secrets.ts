/**
 * Secrets written literally in a stdio server's `env` (docs/config.md). A header or an auth setting must be a secret
 * reference (MCP_CREDENTIALS_INLINE refuses a literal), but `env` holds ordinary settings too (`LOG_LEVEL: debug`),
 * so a literal there is accepted. One under a key that looks secret (`GITHUB_TOKEN`, `API_KEY`, `DB_PASSWORD`) is
 * warned about, by its key — never its value — and redacted from everything mcp-host writes, like a resolved secret.
 */
import { compareNames } from "../compare.js";
import type { DeploymentConfig } from "../config/index.js";
import { isSecretKey } from "../observe/mask-secrets.js";

/** One `servers.<name>.env.<KEY>` written literally under a secret-looking key. */
export interface LiteralSecret {
  /** The config key, e.g. `servers.github.env.GITHUB_TOKEN`. */
  key: string;
  variable: string;
  value: string;
}

/** Shorter than this, a value cannot be redacted (it would mask every such run of letters): as for a reference. */
const SHORTEST = 4;

/**
 * The literal secrets of the config's stdio servers: values under secret-looking `env` keys that no secret
 * reference produced (`resolved` holds what the references resolved to).
 * @example
 * literalEnvSecrets(config, loaded.secrets) // [{ key: "servers.github.env.GITHUB_TOKEN", variable: "GITHUB_TOKEN", value: "ghp_…" }]
 */
export function literalEnvSecrets(config: DeploymentConfig, resolved: readonly string[]): LiteralSecret[] {
  const found: LiteralSecret[] = [];
  for (const [server, spec] of Object.entries(config.servers).sort(([a], [b]) => compareNames(a, b))) {
    if (spec.transport !== "stdio") continue;
    for (const [variable, value] of Object.entries(spec.env).sort(([a], [b]) => compareNames(a, b))) {
      if (!isSecretKey(variable) || value.length < SHORTEST) continue;
      if (resolved.some((secret) => value.includes(secret))) continue;
      found.push({ key: `servers.${server}.env.${variable}`, variable, value });
    }
  }
  return found;
}

/**
 * The warning for one literal secret: its key and the fix, never its value.
 * @example
 * literalSecretWarning({ key: "servers.github.env.GITHUB_TOKEN", variable: "GITHUB_TOKEN", value }) // "servers.github.env.GITHUB_TOKEN looks like a secret …"
 */
export function literalSecretWarning(secret: LiteralSecret): string {
  return (
    `${secret.key} looks like a secret but is written literally in the config (the value is not shown, and is redacted from mcp-host's output); ` +
    `write it as a secret reference, e.g. "\${env:${secret.variable}}" or "\${file:./secrets/${secret.variable.toLowerCase()}}", so the file can be committed and shared`
  );
}
