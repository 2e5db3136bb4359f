// One clock (docs/design.md §17, issue 22): every deadline, timer and "now" of src/ comes from the clock the host is
// given (`HostOptions.clock`), so tests run on a manual clock and take no real time. This test reads every source
// file for the ways around it — a raw setTimeout/setInterval, Date.now(), new Date(), node:timers, AbortSignal.timeout
// or a direct call of the system clock — and fails naming file:line for any outside the allow-list below, where each
// file says why its use is real time by nature and how many uses it has (so a new one there fails too).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The ways to read real time or schedule on it without the injected clock. */
const RAW_TIME: readonly { what: string; pattern: RegExp }[] = [
  // A call has arguments: "setTimeout()" in a message is a word, not a timer.
  { what: "setTimeout", pattern: /(?<![\w.$])setTimeout\s*\((?!\s*\))/ },
  { what: "setInterval", pattern: /(?<![\w.$])setInterval\s*\((?!\s*\))/ },
  { what: "Date.now()", pattern: /\bDate\.now\s*\(/ },
  { what: "new Date()", pattern: /\bnew Date\(\s*\)/ },
  { what: "node:timers", pattern: /["'](node:)?timers(\/promises)?["']/ },
  { what: "AbortSignal.timeout", pattern: /\bAbortSignal\.timeout\s*\(/ },
  { what: "systemClock", pattern: /\bsystemClock\.(now|setTimeout|setInterval)\s*\(/ },
];

/** Files allowed real time, each with why and with how many uses, so that a new raw timer there fails too. */
const ALLOWED: Readonly<Record<string, { uses: number; why: string }>> = {
  "clock.ts": { uses: 3, why: "the system clock itself: the one place real time is read and scheduled" },
  "host/isolation/cpu-watch.ts": { uses: 2, why: "charges a worker for the real CPU time it used, which only real time measures" },
  "host/monitor/event-loop-monitor.ts": { uses: 1, why: "measures how long the real event loop was blocked" },
  "http/observe/ui-page.ts": { uses: 2, why: "the operator page's refresh and its tasks' ages: a script that runs in the browser, not in the host" },
  "http/edge/connection-tracker.ts": {
    uses: 1,
    why: "the shutdown's idle grace: a moment for a request already on the wire to arrive, which the network takes in real time",
  },
  "http/auth/introspection-verifier.ts": { uses: 1, why: "the timeout of one real HTTP exchange with the introspection endpoint" },
  "observe/log-stream.ts": {
    uses: 2,
    why: "the timestamp of a log line, as pino's own lines carry, and the short wait that gathers lines into one write: neither is a deadline",
  },
  "observe/pino-logger.ts": { uses: 1, why: "the wall-clock timestamp of a log line (made once per millisecond), as pino's own isoTime read it" },
  "cli/dev/watch-folder.ts": { uses: 1, why: "the dev loop's quiet spell after real file-system events, in the CLI process" },
  "cli/reload.ts": { uses: 1, why: "the reload's debounce of real file-system events, in the CLI process" },
  "registry/connect/process-group.ts": { uses: 1, why: "polls /proc while a real process group exits; its budget is on the clock" },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return name.endsWith(".ts") ? [path] : [];
    });
}

/** A clock's own method, declared (`setTimeout(callback, ms) {`, `setTimeout(…): ClockTimer;`), is no use of time. */
const METHOD_DECLARATION = /^(setTimeout|setInterval)\s*\(.*(\)\s*\{|\):\s*[\w<>[\]| ]+\s*[{;])$/;

/**
 * The code of a line: comment lines (JSDoc, `//`) and trailing `//` comments are left out, so examples in docs do
 * not count, nor a clock's declaration of its own methods.
 */
function codeOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//")) return "";
  if (METHOD_DECLARATION.test(trimmed)) return "";
  return line.replace(/\s\/\/\s.*$/, "");
}

/** Every raw use of time in src/, as `file:line: what`. */
function rawUses(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const path = relative(SRC, file).split("\\").join("/");
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, index) => {
        const code = codeOf(line);
        for (const { what, pattern } of RAW_TIME) {
          if (!pattern.test(code)) continue;
          const uses = found.get(path) ?? [];
          uses.push(`src/${path}:${index + 1}: ${what}`);
          found.set(path, uses);
        }
      });
  }
  return found;
}

describe("one clock", () => {
  it("finds no raw timer, Date.now() or new Date() in src/ outside the allow-list", () => {
    const stray = [...rawUses()].filter(([path]) => ALLOWED[path] === undefined).flatMap(([, uses]) => uses);
    assert.deepEqual(stray, [], `run these on the host's clock (HostOptions.clock, passed down), or allow the file here saying why:\n${stray.join("\n")}`);
  });

  it("finds exactly as many uses in each allowed file as it allows, so a new one there fails too", () => {
    const found = rawUses();
    const counts = Object.entries(ALLOWED).map(([path, { uses }]) => ({ path, allowed: uses, found: found.get(path) ?? [] }));
    const wrong = counts.filter((c) => c.found.length !== c.allowed);
    assert.deepEqual(
      wrong.map((c) => `src/${c.path}: allowed ${c.allowed}, found ${c.found.length}${c.found.length ? ` (${c.found.join("; ")})` : ""}`),
      [],
    );
  });

  it("gives every allowed file a reason", () => {
    for (const [path, { why }] of Object.entries(ALLOWED)) assert.ok(why.length > 20, `src/${path} needs a reason`);
  });
});
