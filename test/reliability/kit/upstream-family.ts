/**
 * The HTTP fuzz's upstream family (issue 30 §1, §3): 2026-07-28 tool calls to gateway upstreams that answer badly on
 * purpose — the unruly HTTP upstream (an answer as JSON or SSE) and the unruly stdio one (test/fixtures/upstream/
 * unruly-*.mjs) — with answers huge (past the fuzz's small `tools.maxResultBytes`), within the limit, slow, nested
 * deep, malformed (not JSON, wrong content type, cut short, an HTTP 500, junk lines), and for the wrong id (a stray
 * answer before the real one, an answer to another call on this call's stream). Each must be answered — a result or
 * an isError — never a 5xx, never a hang, and the host must keep serving meanwhile.
 */
import { unrulyStdio } from "../../../bench/lib/unruly-upstream.js";
import type { Random } from "./seed.js";

/** The largest result in the fuzz's config: small, so a huge answer costs the machine little. */
export const FUZZ_MAX_RESULT_BYTES = 256 * 1024;

/** The config's `servers` entries for the unruly upstreams (JSON is YAML): `web` at `webUrl`, `pipe` over stdio. */
export function unrulyServers(webUrl: string): Record<string, unknown> {
  return { web: { url: webUrl, era: "legacy" }, pipe: unrulyStdio("fuzz-secret-0000") };
}

const WEB_MALFORMED = ["not-json", "bad-sse", "no-answer", "wrong-type", "truncated", "status-500", "batch"] as const;
const PIPE_MALFORMED = ["junk", "stray-id"] as const;

/** The selection, tool and arguments of one upstream case. */
export function upstreamCall(random: Random): { target: string; name: string; arguments: Record<string, unknown>; what: string } {
  const server = random.pick(["web", "pipe"] as const);
  const via = server === "web" ? { via: random.pick(["sse", "json"]) } : {};
  const call = (name: string, args: Record<string, unknown>, what: string) => ({
    target: `/mcp?only=${server}`,
    name,
    arguments: args,
    what: `${server} ${what}`,
  });
  const tool = (base: string) => (random.chance(0.3) ? `checked_${base}` : base);
  switch (random.int(0, 5)) {
    case 0: {
      const bytes = random.int(FUZZ_MAX_RESULT_BYTES * 2, FUZZ_MAX_RESULT_BYTES * 8);
      return call(tool("text"), { bytes, ...via }, `huge ${bytes}`);
    }
    case 1: {
      const bytes = random.int(0, FUZZ_MAX_RESULT_BYTES / 2);
      return call(tool("text"), { bytes, ...via }, "within the limit");
    }
    case 2:
      return call("slow", { pieces: random.int(1, 5), ms: random.int(1, 30) }, "slow");
    case 3: {
      const depth = random.int(1, 200);
      return call(tool("deep"), { depth, ...via }, `deep ${depth > 56 ? "past" : "within"} the limit`);
    }
    case 4: {
      const kind = server === "web" ? random.pick(WEB_MALFORMED) : random.pick(PIPE_MALFORMED);
      return call("malformed", { kind, ...via }, `malformed ${kind}`);
    }
    default:
      return server === "web" ? call("swap", {}, "an answer on another call's stream") : call("malformed", { kind: "stray-id" }, "a stray answer first");
  }
}
