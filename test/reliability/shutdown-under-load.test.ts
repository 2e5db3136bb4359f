// Shutdown under load (docs/design.md §16): keep-alive clients keep calling the real `mcp-host serve` while it gets
// SIGTERM. Every request it had taken in is answered; answers during the drain say Connection: close, so no
// client sends another request on a socket about to go — a request is either answered or refused before it was
// sent (the connection is refused), never lost to a reset; the process exits 0.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Agent, fetch } from "undici";
import { Cleanup } from "../helpers/cleanup.js";
import { count, figure, histogram } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { serveCli } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const CLIENTS = scaled(16, 64);
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

function causeCode(error: unknown): string {
  let e = error as { code?: string; cause?: unknown; message?: string } | undefined;
  while (e?.cause !== undefined && e.code === undefined) e = e.cause as typeof e;
  return e?.code ?? e?.message ?? "unknown";
}

describe("shutdown under load", { timeout: 120_000 }, () => {
  it(`answers or cleanly refuses every request of ${CLIENTS} keep-alive clients across a SIGTERM, losing none to a reset`, async () => {
    const served = await serveCli(cleanup);
    const agents = Array.from({ length: CLIENTS }, () => new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 60_000 }));
    cleanup.add(() => Promise.all(agents.map((a) => a.close())));
    const outcomes = new Map<string, number>();
    let answered = 0;
    let stopping = false;
    let onAnswered: (() => void) | undefined;
    const client = async (agent: Agent, index: number) => {
      for (let i = 0; ; i++) {
        const name = i % 3 === 0 ? "pause" : "echo";
        const args = name === "pause" ? { ms: 20 } : { text: `c${index}-${i}` };
        try {
          const response = await fetch(served.url, {
            method: "POST",
            dispatcher: agent,
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2026-07-28",
              "mcp-method": "tools/call",
              "mcp-name": name,
            },
            body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name, arguments: args, _meta: MODERN_META } }),
          });
          const text = await response.text();
          const closing = response.headers.get("connection") === "close";
          count(
            outcomes,
            response.status === 200 && text.includes('"result"') ? (closing ? "answered, Connection: close" : "answered") : `HTTP ${response.status}`,
          );
          answered += 1;
          onAnswered?.();
        } catch (error) {
          const code = causeCode(error);
          count(outcomes, code === "ECONNREFUSED" ? "refused (connection refused)" : `lost (${code})`);
          if (stopping) return;
        }
        if (stopping && i > 10_000) return;
      }
    };
    const running = agents.map((agent, i) => client(agent, i));
    // Load first, then the signal.
    await new Promise<void>((resolve) => {
      onAnswered = () => {
        if (answered >= scaled(300, 3_000)) resolve();
      };
    });
    onAnswered = undefined;
    stopping = true;
    served.cli.child.kill("SIGTERM");
    const exit = await served.cli.exited;
    await Promise.all(running);
    figure("shutdown under load", `${CLIENTS} keep-alive clients across SIGTERM: ${histogram(outcomes)}; exit ${JSON.stringify(exit)}`);
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.deepEqual(
      [...outcomes.keys()].filter((k) => k.startsWith("lost") || k.startsWith("HTTP")),
      [],
    );
    assert.ok((outcomes.get("answered, Connection: close") ?? 0) > 0, "answers during the drain said Connection: close");
  });
});
