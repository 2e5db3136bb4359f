/**
 * The fast path's servers of one build (docs/design.md §8): a few long-lived pooled servers, made as requests need
 * them and never more than the bound. A request goes to the first server on which its JSON-RPC id is not in flight;
 * clients number their requests alike (each starts at 0 or 1), so several requests with one id may be in flight at
 * once, each on its own server. When every server has the id in flight the request goes to the SDK's entry. A pool
 * whose build was replaced is retired: its servers take nothing new and close when their last request is done.
 */
import type { RequestId } from "@modelcontextprotocol/server";
import type { BuildCore } from "../../host/build/compiled-build.js";
import { PooledTransport } from "./pooled-server.js";

/** Servers one build's pool holds at most: as many requests with one id may be in flight on the fast path at once. */
export const MAX_POOLED_SERVERS = 16;

export class ServerPool {
  private readonly members: PooledTransport[] = [];
  /** Servers being connected (counted against the bound). */
  private connecting = 0;
  private retired = false;

  constructor(readonly build: BuildCore) {}

  /**
   * A server on which `id` is not in flight, or undefined when the pool needs a new one for it (`grow`).
   * @example
   * const member = pool.free(id) ?? (await pool.grow());
   */
  free(id: RequestId): PooledTransport | undefined {
    for (const member of this.members) if (member.takes(id)) return member;
    return undefined;
  }

  /** A new server, connected; undefined when the pool is at its bound. */
  async grow(): Promise<PooledTransport | undefined> {
    if (this.members.length + this.connecting >= MAX_POOLED_SERVERS) return undefined;
    this.connecting += 1;
    const member = new PooledTransport(this.build.protocol);
    try {
      await member.connect();
    } finally {
      this.connecting -= 1;
    }
    if (this.retired) {
      member.retire();
      return undefined;
    }
    this.members.push(member);
    return member;
  }

  /** The pool's build was replaced: its servers finish what they serve, then close. */
  retire(): void {
    this.retired = true;
    for (const member of this.members.splice(0)) member.retire();
  }

  /** Closes every server now (the endpoint closes): requests still in flight are answered as closed. */
  async close(): Promise<void> {
    this.retired = true;
    await Promise.all(this.members.splice(0).map((member) => member.close()));
  }
}
