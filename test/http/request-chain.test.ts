// One router layer for a fixed list of handlers (src/http/request-chain.ts) must behave as a layer per handler
// would: handlers run in order, an error (passed, thrown or a rejected promise) skips to the next error handler,
// an error handler that answers ends it, and whatever is left over reaches express's own next handlers.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { requestChain } from "../../src/http/request-chain.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(chain: RequestHandler): Promise<string> {
  const app = express();
  app.use(chain);
  app.use((_req, res) => void res.status(404).send("fell through"));
  app.use(((error, _req, res, _next) => void res.status(500).send(`express saw: ${(error as Error).message}`)) as ErrorRequestHandler);
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

describe("requestChain", () => {
  it("runs the handlers in order and hands what is left to express", async () => {
    const seen: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        seen.push(name);
        next();
      };
    const skipped: ErrorRequestHandler = (_error, _req, _res, next) => {
      seen.push("error handler");
      next();
    };
    const url = await serve(requestChain([step("a"), skipped, step("b")]));
    assert.deepEqual(await get(url), { status: 404, text: "fell through" });
    assert.deepEqual(seen, ["a", "b"]);
  });

  it("skips to the next error handler on a passed, thrown or rejected error, and an answer there ends the chain", async () => {
    for (const fail of [
      ((_req, _res, next) => next(new Error("passed"))) as RequestHandler,
      (() => {
        throw new Error("thrown");
      }) as RequestHandler,
      (async () => {
        throw new Error("rejected");
      }) as RequestHandler,
    ]) {
      const seen: string[] = [];
      const never: RequestHandler = (_req, _res, next) => {
        seen.push("never");
        next();
      };
      const answer: ErrorRequestHandler = (error, _req, res, _next) => void res.status(400).send(`chain saw: ${(error as Error).message}`);
      const url = await serve(requestChain([fail, never, answer, never]));
      const { status, text } = await get(url);
      assert.equal(status, 400);
      assert.match(text, /^chain saw: (passed|thrown|rejected)$/);
      assert.deepEqual(seen, []);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });

  it("passes an error no handler of the chain answered on to express", async () => {
    const unanswered: RequestHandler = (_req, _res, next) => next(new Error("unanswered"));
    const url = await serve(requestChain([unanswered]));
    assert.deepEqual(await get(url), { status: 500, text: "express saw: unanswered" });
  });
});
