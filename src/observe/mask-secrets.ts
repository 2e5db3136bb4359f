/**
 * Masks values under keys that look secret (`token`, `password`, `key`, `secret`, `authorization`, …) in a tool
 * call's arguments before an audit line shows them (`logging.includeArguments`). Bounded: deep or large arguments
 * are cut rather than walked, so a hostile payload cannot make a log line expensive.
 */

/**
 * What a masked value is replaced with.
 * @example
 * maskSecrets({ token: "t" }).token === MASK // true
 */
export const MASK = "[masked]";

/** Words that make a key secret, wherever they stand in it (`apiKey`, `X-Auth-Token`, `db_password`). */
const SECRET_WORDS = new Set([
  "token",
  "password",
  "passwd",
  "passphrase",
  "secret",
  "authorization",
  "auth",
  "cookie",
  "credential",
  "credentials",
  "key",
  "apikey",
  "signature",
  "bearer",
]);
const MAX_DEPTH = 6;
const MAX_ENTRIES = 50;
const MAX_STRING = 500;

/**
 * True when a key's value should never be logged.
 * @example
 * isSecretKey("apiKey") // true
 * isSecretKey("monkey") // false
 */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

function maskValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? "[list]" : "[object]";
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_ENTRIES).map((item) => maskValue(item, depth + 1));
    return value.length > MAX_ENTRIES ? [...shown, `… (${value.length} items)`] : shown;
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const [key, item] of Object.entries(value)) {
    if (count++ >= MAX_ENTRIES) {
      out["…"] = `${Object.keys(value).length} keys in all`;
      break;
    }
    out[key] = isSecretKey(key) ? MASK : maskValue(item, depth + 1);
  }
  return out;
}

/**
 * A copy of `args` safe to log: secret-looking keys masked at every depth, long strings and lists cut.
 * @example
 * maskSecrets({ query: "x", apiKey: "sk-1", nested: { password: "p" } }) // { query: "x", apiKey: "[masked]", nested: { password: "[masked]" } }
 */
export function maskSecrets(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return maskValue(args, 0) as Record<string, unknown>;
}
