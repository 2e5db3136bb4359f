/**
 * Upstream auth kinds: `bearer` and `oauth` are built in, extensions contribute more (`authStrategies`). The config
 * is read before extensions load, so the kinds are checked in a second step — `checkAuthKinds`, which the CLI runs
 * once extensions are loaded — or at load time when the caller already knows them (`loadConfig({ authKinds })`).
 */
import { sortProblems, type ConfigProblem, type PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";
import { BUILT_IN_AUTH_KINDS } from "./schema-servers.js";
import type { DeploymentConfig } from "./schema.js";

/**
 * MCP_AUTH_STRATEGY_UNKNOWN for each server whose `auth.kind` is neither built in nor in `registered`.
 * @example
 * authKindProblems({ corp: { url: "https://c.example.com/mcp", auth: { kind: "vault" } } }, [])
 * // [{ code: "MCP_AUTH_STRATEGY_UNKNOWN", path: ["servers", "corp", "auth", "kind"], message: 'auth kind "vault" is not registered; …' }]
 */
export function authKindProblems(servers: unknown, registered: readonly string[]): PathProblem[] {
  if (!isRecord(servers)) return [];
  const known = [...new Set([...BUILT_IN_AUTH_KINDS, ...registered])].sort();
  const out: PathProblem[] = [];
  for (const [name, server] of Object.entries(servers)) {
    if (!isRecord(server) || !isRecord(server.auth) || typeof server.auth.kind !== "string") continue;
    const kind = server.auth.kind;
    if (known.includes(kind)) continue;
    const shown = JSON.stringify(kind.length > 40 ? `${kind.slice(0, 37)}...` : kind);
    out.push({
      code: "MCP_AUTH_STRATEGY_UNKNOWN",
      path: ["servers", name, "auth", "kind"],
      message: `auth kind ${shown} is not registered; the registered kinds are ${known.join(", ")} (install the extension that contributes it)`,
    });
  }
  return out;
}

/**
 * The servers whose auth kind nobody registered, once extensions are loaded. `registeredKinds` are the kinds
 * extensions contributed; the built-in `bearer` and `oauth` always count.
 * @example
 * const problems = checkAuthKinds(config, ["vault"]);
 * if (problems.length > 0) throw new ConfigError(problems);
 */
export function checkAuthKinds(config: DeploymentConfig, registeredKinds: readonly string[]): ConfigProblem[] {
  return sortProblems(authKindProblems(config.servers, registeredKinds));
}
