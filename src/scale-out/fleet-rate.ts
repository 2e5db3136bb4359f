/**
 * The callers' request rate counted in Redis (docs/scale-out.md), so `http.callerRequestsPerSecond` and
 * `http.callerBurst` hold for the whole fleet and not once per instance. The same token bucket the instance keeps
 * alone (http/mcp/caller-limits.ts), as one Lua script Redis runs atomically on its own clock (no instance's clock
 * decides). A caller's key is a hash of who it is, so no subject or address is written into Redis. When Redis cannot
 * answer in time the check reports that it could not decide: the request is then served (fail open), never refused.
 */
import { createHash } from "node:crypto";
import type { RedisLink } from "./redis-link.js";

// KEYS[1]: the caller's bucket. ARGV: rate (tokens a second), burst. Returns the milliseconds until a token is there
// (0: one was taken). The bucket expires once it would be full again, so idle callers cost Redis nothing.
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1])
local at = tonumber(held[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
if now > at then tokens = math.min(burst, tokens + (now - at) / 1000 * rate) end
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate * 1000) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return wait
`;

type TakeCommand = (key: string, rate: number, burst: number) => Promise<number>;

/**
 * @example
 * const rate = new FleetRate(link, "mcp-host:");
 * await rate.take("subject alice", 10, 20) // 0: go on; 250: retry in 250 ms; undefined: Redis did not answer
 */
export class FleetRate {
  private readonly takeToken: TakeCommand;

  constructor(
    private readonly link: RedisLink,
    private readonly prefix: string,
  ) {
    // ioredis sends the script by its SHA and loads it once when Redis does not know it yet.
    link.commands.defineCommand("mcpHostTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.takeToken = (link.commands as unknown as { mcpHostTakeToken: TakeCommand }).mcpHostTakeToken.bind(link.commands);
  }

  /** Takes one token of `caller`'s bucket: 0 when it had one, else the milliseconds until it will; undefined when Redis did not answer. */
  async take(caller: string, perSecond: number, burst: number): Promise<number | undefined> {
    if (!this.link.up) {
      this.link.failed("the fleet's rate check", new Error("Redis is not connected"));
      return undefined;
    }
    try {
      return Number(await this.takeToken(this.keyOf(caller), perSecond, burst));
    } catch (error) {
      this.link.failed("the fleet's rate check", error);
      return undefined;
    }
  }

  private keyOf(caller: string): string {
    return `${this.prefix}rate:${createHash("sha256").update(caller).digest("base64url").slice(0, 32)}`;
  }
}
