/**
 * The fleet's record of used `requestState`s (docs/scale-out.md, docs/security.md): each sealed state carries a
 * single-use id, and the first instance to see it back claims the id in Redis (`SET … NX PX`, expiring with the state),
 * so the same state is refused on every other instance. When Redis cannot answer in time the claim says it could not
 * tell, and the instance goes by what it has seen itself (the host keeps its own record too): a replay then runs at
 * most once per instance until Redis is back, and the outage is logged once, as the fleet's other sharing is.
 */
import type { RedisLink } from "./redis-link.js";

/**
 * @example
 * const claims = new FleetClaims(link, "mcp-host:");
 * await claims.claim("n-1", 600_000) // true the first time, false after, undefined while Redis cannot answer
 */
export class FleetClaims {
  constructor(
    private readonly link: RedisLink,
    private readonly prefix: string,
  ) {}

  async claim(id: string, ttlMs: number): Promise<boolean | undefined> {
    if (!this.link.up) {
      this.link.failed("the fleet's single-use request states", new Error("Redis is not connected"));
      return undefined;
    }
    try {
      const set = await this.link.commands.set(`${this.prefix}used-state:${id}`, "1", "PX", Math.max(1, Math.ceil(ttlMs)), "NX");
      return set === "OK";
    } catch (error) {
      this.link.failed("the fleet's single-use request states", error);
      return undefined;
    }
  }
}
