/**
 * Memory of idle 2025-era sessions, for scenario 3: in a fresh server process, open 1000 sessions (initialize +
 * initialized) and leave them idle, then delete them — three times — reading the server's heap (after a full GC,
 * over IPC) and RSS at each step. The footprint per session is the heap grown per session; what comes back is
 * the heap after DELETE against the baseline; growth is the baseline's drift over the cycles. With an idle TTL
 * (mcp-host), the same is done letting the sessions expire instead of deleting them. mcp-host's heap comes from the
 * probe preloaded into its CLI process (bench/servers/cli-probe.mjs), every other peer's from its server process.
 */
import type { LoadGenerator } from "../lib/loadgen-client.js";
import type { Memory } from "../lib/peer-process.js";
import { type ServerProcess, startPeers } from "../lib/peers.js";
import type { PeerConfig } from "../servers/peer.js";

export interface IdleCycle {
  base: Memory;
  idle: Memory;
  after: Memory;
}

export interface IdleMemory {
  sessions: number;
  cycles: IdleCycle[];
  /** Heap grown per idle session (bytes), median-free: from the last cycle (the warmest). */
  heapPerSession: number;
  rssPerSession: number;
  /** Heap after the sessions ended − baseline, in the last cycle (bytes). */
  leftAfterEnd: number;
  /** Baseline of the last cycle − baseline of the first (bytes). */
  growth: number;
  /** How the sessions ended: "DELETE" or "expiry after N ms". */
  ended: string;
}

export interface IdleOptions {
  sessions: number;
  cycles: number;
  /** Let the sessions expire (the server's idle TTL, ms) instead of deleting them. */
  expireAfterMs?: number;
  log(line: string): void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForExpiry(loadgen: LoadGenerator, key: string, ttlMs: number): Promise<number> {
  const started = Date.now();
  // Probing refreshes the probed session, so each probe asks a different one; the first 404 means the sweep
  // has begun (it closes the expired sessions one after another, oldest first). Then it gets time to finish.
  for (let attempt = 0; attempt < 30; attempt += 1) {
    await pause(attempt === 0 ? ttlMs : 1000);
    const { status } = await loadgen.probeIdle(key, attempt);
    if (status === 404) {
      const gone = Date.now() - started;
      await pause(Math.max(2000, ttlMs));
      return gone;
    }
  }
  throw new Error(`the sessions did not expire within ${ttlMs + 30_000} ms`);
}

export async function idleMemory(loadgen: LoadGenerator, config: PeerConfig, options: IdleOptions): Promise<IdleMemory> {
  const [peer] = (await startPeers([config])) as [ServerProcess];
  const key = `${config.peer}-idle-${options.expireAfterMs ?? "delete"}`;
  const cycles: IdleCycle[] = [];
  let ended = "DELETE";
  try {
    await loadgen.open({ key, url: peer.url.href, era: "session", concurrency: 16, tools: 1, sessions: false });
    for (let warm = 0; warm < 2; warm += 1) {
      await loadgen.openIdle(key, 100);
      await loadgen.deleteIdle(key);
    }
    for (let cycle = 0; cycle < options.cycles; cycle += 1) {
      const base = await peer.memory();
      await loadgen.openIdle(key, options.sessions);
      const idle = await peer.memory();
      if (options.expireAfterMs === undefined) await loadgen.deleteIdle(key);
      else {
        ended = `expiry (idle TTL ${options.expireAfterMs} ms, gone after ${await waitForExpiry(loadgen, key, options.expireAfterMs)} ms)`;
        await loadgen.forgetIdle(key);
      }
      const after = await peer.memory();
      cycles.push({ base, idle, after });
      options.log(
        `  ${config.peer}: cycle ${cycle + 1}: heap ${(base.heapUsed / 2 ** 20).toFixed(1)} → ${(idle.heapUsed / 2 ** 20).toFixed(1)} → ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB (${ended})`,
      );
    }
  } finally {
    await loadgen.closeTarget(key).catch(() => {});
    await peer.close();
  }
  const last = cycles[cycles.length - 1]!;
  return {
    sessions: options.sessions,
    cycles,
    heapPerSession: (last.idle.heapUsed - last.base.heapUsed) / options.sessions,
    rssPerSession: (last.idle.rss - last.base.rss) / options.sessions,
    leftAfterEnd: last.after.heapUsed - last.base.heapUsed,
    growth: last.base.heapUsed - cycles[0]!.base.heapUsed,
    ended,
  };
}
