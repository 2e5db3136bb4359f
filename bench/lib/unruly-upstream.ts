/**
 * The unruly upstreams (test/fixtures/upstream/unruly-*.mjs: answers huge, slow, deep, malformed, on another request's
 * stream) as a test or a measurement starts them — the HTTP one in its own process group, so its work never runs on
 * the serving process's event loop and ending it ends everything it started — and a watch on the serving process
 * while an answer arrives: the event loop's delay (perf_hooks), the latency of `/healthz` asked again and again, and
 * the resident memory's peak. Shared by test/upstream/bounded-answers.test.ts and bench/upstream-answers.bench.ts.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/upstream/", import.meta.url));

/** The stdio fixture's server entry: the secret it puts at the bottom of a deep answer comes from its env. */
export function unrulyStdio(secret = "none"): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [join(FIXTURES, "unruly-stdio.mjs")], env: { UNRULY_SECRET: secret } };
}

/** A running HTTP fixture: its endpoint, and how to end it (its whole process group). */
export interface UnrulyHttp {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts test/fixtures/upstream/unruly-http.mjs on 127.0.0.1 and waits for its port; `onEnd` receives its stop.
 * @example
 * const upstream = await startUnrulyHttp((stop) => cleanup.add(stop));
 */
export async function startUnrulyHttp(onEnd: (stop: () => Promise<void>) => void): Promise<UnrulyHttp> {
  const child = spawn(process.execPath, [join(FIXTURES, "unruly-http.mjs")], { stdio: ["pipe", "pipe", "inherit"], detached: true });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await exited;
  };
  onEnd(stop);
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const line = text.split("\n")[0];
      if (text.includes("\n") && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("error", reject);
    child.once("close", (code) => reject(new Error(`unruly-http.mjs exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

/** What the watch saw. */
export interface ServingFigures {
  /** The event loop's longest delay, and its 99th percentile (ms). */
  loopMaxMs: number;
  loopP99Ms: number;
  /** `/healthz` answers while watching, and the slowest (ms). */
  healthzCount: number;
  healthzMaxMs: number;
  /** `/healthz` requests not answered 200 (a connection dropped). */
  healthzFailed: number;
  /** Resident memory when the watch began and at its peak (bytes), sampled every 10 ms. */
  rssStart: number;
  rssPeak: number;
}

/**
 * Watches this process (the one serving) until `stop()`: the loop's delay, `/healthz` at `healthzUrl` one request
 * after another, and RSS.
 * @example
 * const watch = watchServing(new URL("/healthz", served.url)); await call(); const figures = await watch.stop();
 */
export function watchServing(healthzUrl: URL): { stop(): Promise<ServingFigures> } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 10);
  let watching = true;
  const latencies: number[] = [];
  let failed = 0;
  const poll = (async () => {
    while (watching) {
      const started = performance.now();
      try {
        const answer = await fetch(healthzUrl);
        await answer.arrayBuffer();
        if (answer.status !== 200) failed += 1;
      } catch {
        failed += 1; // a connection the blocked server dropped: counted, and asked again
      }
      latencies.push(performance.now() - started);
    }
  })();
  return {
    async stop() {
      watching = false;
      await poll;
      clearInterval(sampler);
      loop.disable();
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      return {
        loopMaxMs: loop.max / 1e6,
        loopP99Ms: loop.percentile(99) / 1e6,
        healthzCount: latencies.length,
        healthzMaxMs: Math.max(0, ...latencies),
        healthzFailed: failed,
        rssStart,
        rssPeak,
      };
    },
  };
}
