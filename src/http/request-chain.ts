/**
 * Runs a fixed list of express handlers as one (docs/performance.md, scenario 3). Every layer express's router
 * holds costs a path match, a `next` closure and its bookkeeping on every request; the edge's checks and the MCP
 * path's handlers always run together, in order, so the app mounts each list as one layer. The semantics are the
 * router's: a handler that throws or whose promise rejects passes its error on; with an error pending only error
 * handlers (four parameters) run, and without one they are skipped; whatever is left over goes to express's own
 * `next`, so the app's not-found answer and final error handler see exactly what they saw before.
 */
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";

type Handler = RequestHandler | ErrorRequestHandler;

/**
 * One handler that runs `handlers` in order, like a router layer per handler would.
 * @example
 * app.use(requestChain([requestTarget(), hostCheck({}), originCheck({})]));
 */
export function requestChain(handlers: readonly Handler[]): RequestHandler {
  const list = [...handlers];
  return (req: Request, res: Response, done: NextFunction): void => {
    let index = 0;
    const next = (error?: unknown): void => {
      // `next("route")` / `next("router")` leave the chain the way they would leave a route or router.
      if (error === "route" || error === "router") {
        done(error === "route" ? undefined : error);
        return;
      }
      // Like the router, a falsy value is no error.
      let pending: unknown = error ? error : undefined;
      while (index < list.length) {
        const handler = list[index++]!;
        const handlesErrors = handler.length === 4;
        if ((pending === undefined) === handlesErrors) continue;
        try {
          const ret: unknown = pending === undefined ? (handler as RequestHandler)(req, res, next) : (handler as ErrorRequestHandler)(pending, req, res, next);
          if (ret !== null && typeof ret === "object" && typeof (ret as Promise<unknown>).then === "function") {
            (ret as Promise<unknown>).then(undefined, (rejected: unknown) => next(rejected || new Error("Rejected promise")));
          }
          return;
        } catch (thrown) {
          pending = thrown;
        }
      }
      done(pending);
    };
    next();
  };
}
