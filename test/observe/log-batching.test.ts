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

it("writes the lines of one burst in one write, in order, once the batch's wait is over", async () => {
  const { writes, stream } = sink();
  const out = batchedLogStream(safeLogStream(stream));
  out.write("a\n");
  await sleep(1);
  out.write("b\n");
  out.write("c\n");
  assert.deepEqual(writes, [], "nothing is written before the wait is over");
  await sleep(LOG_BATCH_MS + 20);
  assert.deepEqual(writes, ["a\nb\nc\n"]);
  out.write("d\n");
  await sleep(LOG_BATCH_MS + 20);
  assert.deepEqual(writes, ["a\nb\nc\n", "d\n"], "a later line starts a batch of its own");
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
