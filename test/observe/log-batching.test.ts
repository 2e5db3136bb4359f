// Log lines to stderr are gathered and written together (src/observe/log-stream.ts): each write to a pipe is a
// system call that wakes the reader, which at one request at a time was a tenth of the CLI's CPU. Lines written within
// LOG_BATCH_MS of the first go out in one write, in order; 64 KiB waiting go out at once; and what is waiting when
// the process exits is written — checked with a real child process whose stderr is a pipe.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { batchedLogStream, LOG_BATCH_MS, safeLogStream } from "../../src/observe/log-stream.js";

function sink() {
  const writes: string[] = [];
  return { writes, stream: { write: (chunk: string) => writes.push(chunk) } };
}

/** Resolves once `ready()` is true, checking every few milliseconds; fails after `ms`. */
async function until(ready: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    assert.ok(Date.now() < deadline, "the batch was never written");
    await sleep(2);
  }
}

it("holds lines across turns of the event loop until the batch's wait is over", async () => {
  // A wait far longer than the test: nothing may be written, however many turns go by.
  const { writes, stream } = sink();
  const out = batchedLogStream(safeLogStream(stream), 60_000);
  out.write("a\n");
  await new Promise((resolve) => setImmediate(resolve));
  out.write("b\n");
  await sleep(5);
  assert.deepEqual(writes, []);
});

it("then writes the lines of one burst in one write, in order; a later line starts a batch of its own", async () => {
  const { writes, stream } = sink();
  const out = batchedLogStream(safeLogStream(stream), LOG_BATCH_MS);
  out.write("a\n");
  out.write("b\n");
  out.write("c\n");
  await until(() => writes.length > 0, 5_000);
  assert.deepEqual(writes, ["a\nb\nc\n"]);
  out.write("d\n");
  await until(() => writes.length > 1, 5_000);
  assert.deepEqual(writes, ["a\nb\nc\n", "d\n"]);
});

it("writes at once when 64 KiB are waiting", () => {
  const { writes, stream } = sink();
  const out = batchedLogStream(safeLogStream(stream));
  const big = `${"x".repeat(40_000)}\n`;
  out.write(big);
  assert.equal(writes.length, 0);
  out.write(big);
  assert.deepEqual(writes, [big + big]);
});

it("writes what is waiting when the process exits, to a real pipe", () => {
  const logStream = fileURLToPath(new URL("../../src/observe/log-stream.ts", import.meta.url));
  const script = `import { batchedLogStream, safeLogStream } from ${JSON.stringify(logStream)};
const out = batchedLogStream(safeLogStream(process.stderr));
out.write("first\\n"); out.write("second\\n");
process.exit(3);`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(child.status, 3, child.stderr);
  assert.equal(child.stderr, "first\nsecond\n");
});
