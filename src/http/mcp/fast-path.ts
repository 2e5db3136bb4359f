/**
 * The fast path of one selection's endpoint (docs/design.md §8): a 2026-07-28 request the guard proves ordinary is
 * served on a long-lived pooled server of its build, and its answer written straight to the node response; every
 * other request — and one the pool cannot take now — goes to the SDK's entry (`createMcpHandler`) as before. A build
 * that is replaced (an offer change) retires its pool; the pool closes with the endpoint.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BuildCore } from "../../host/build/compiled-build.js";
import type { RequestFacts } from "../edge/request-facts.js";
import { clientLeft, onResponseClose } from "../edge/connection-tracker.js";
import { FastExchange } from "./fast-exchange.js";
import { fastRouteOf, type FastRoute } from "./fast-path-guard.js";
import type { PooledTransport } from "./pooled-server.js";
import { requestInfoOf } from "./request-info.js";
import { ServerPool } from "./server-pool.js";

export class FastPath {
  private pool: ServerPool | undefined;

  /**
   * Serves the request on the fast path when it may; false when the SDK's entry is to serve it (nothing was written).
   * No web `Request` is made unless a handler reads it, and no promise unless the pool has to grow for it: `true` or
   * `false` itself when that is known at once.
   * @example
   * const fast = fastPath.serve(build, facts, req, res); if (fast === true || (fast !== false && (await fast))) return;
   */
  serve(build: BuildCore, facts: RequestFacts, req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    const route = fastRouteOf(req, facts.body);
    if (route === undefined || clientLeft(res)) return false;
    const pool = this.poolFor(build);
    const id = route.message.id;
    const member = pool.free(id);
    if (member !== undefined) return this.serveOn(member, route, build, facts, req, res);
    return pool.grow().then((grown) => grown?.takes(id) === true && !clientLeft(res) && this.serveOn(grown, route, build, facts, req, res));
  }

  private serveOn(member: PooledTransport, route: FastRoute, build: BuildCore, facts: RequestFacts, req: IncomingMessage, res: ServerResponse): boolean {
    const exchange = new FastExchange(route, req, res, facts, requestInfoOf(build, facts, "modern", facts.authInfo), facts.authInfo);
    if (!member.dispatch(exchange)) return false;
    onResponseClose(res, () => {
      if (!res.writableFinished) member.abandon(exchange);
    });
    return true;
  }

  /** Closes the pool: requests still in flight on it are answered as closed. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  private poolFor(build: BuildCore): ServerPool {
    if (this.pool?.build === build) return this.pool;
    this.pool?.retire();
    this.pool = new ServerPool(build);
    return this.pool;
  }
}
