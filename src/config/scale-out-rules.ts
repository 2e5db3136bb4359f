/**
 * The rules of `scaleOut:` (docs/scale-out.md) that its schema leaves to code, so that neither value is ever shown:
 * the Redis URL must be `redis://` or `rediss://` (it may carry a password), and the state key must hold at least 32
 * bytes (it signs every `requestState` of the fleet: a short key can be guessed, and a guessed key forges state).
 */
import type { PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";

/** The fewest bytes a fleet's `requestState` key may have (the HMAC's own output size). */
export const MIN_STATE_KEY_BYTES = 32;

function redisUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a valid URL; write redis://host:6379 or rediss://host:6380 (the value is not shown)";
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") return "must be a redis:// or rediss:// URL (the value is not shown)";
  if (url.hostname === "") return "names no host; write redis://host:6379 (the value is not shown)";
  return undefined;
}

/**
 * @example
 * scaleOutProblems({ stateKey: "short" }) // [{ code: "CONFIG_STATE_KEY_TOO_SHORT", path: ["scaleOut", "stateKey"], … }]
 */
export function scaleOutProblems(scaleOut: unknown): PathProblem[] {
  if (!isRecord(scaleOut)) return [];
  const out: PathProblem[] = [];
  const url = isRecord(scaleOut.redis) ? scaleOut.redis.url : undefined;
  const urlProblem = typeof url === "string" ? redisUrlProblem(url) : undefined;
  if (urlProblem !== undefined) out.push({ code: "CONFIG_INVALID", path: ["scaleOut", "redis", "url"], message: urlProblem });
  const key = scaleOut.stateKey;
  if (typeof key === "string" && Buffer.byteLength(key, "utf8") < MIN_STATE_KEY_BYTES) {
    out.push({
      code: "CONFIG_STATE_KEY_TOO_SHORT",
      path: ["scaleOut", "stateKey"],
      message: `holds fewer than ${MIN_STATE_KEY_BYTES} bytes: too short to sign requestState for a fleet; generate one with \`openssl rand -base64 32\` (the value is not shown)`,
    });
  }
  return out;
}
