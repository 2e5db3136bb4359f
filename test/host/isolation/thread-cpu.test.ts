// A thread's CPU time as the CPU budget reads it (Linux /proc): a mark names the thread and what it had used, and
// the reading since the mark grows while the thread computes. Elsewhere there is no reading, and the budget falls
// back to the worker's busy time.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { cpuSince, markThreadCpu } from "../../../src/host/isolation/thread-cpu.js";

describe("thread CPU time", { skip: !existsSync("/proc/thread-self") && "no /proc/thread-self on this platform" }, () => {
  it("marks this thread and reads the CPU it used since, which grows while it computes", () => {
    const mark = markThreadCpu();
    assert.ok(mark !== undefined && Number.isInteger(mark.tid) && mark.tid > 0 && mark.usedMs >= 0, JSON.stringify(mark));
    let spent = cpuSince(mark) ?? -1;
    assert.ok(spent >= 0, `spent ${spent}`);
    // Compute until the reading passes 30 ms (ticks are 10 ms); a reading that never grew would end the loop at its bound.
    let sum = 0;
    for (let i = 0; i < 2_000_000 && spent < 30; i++) {
      for (let j = 0; j < 1000; j++) sum += Math.sqrt(i + j);
      spent = cpuSince(mark) ?? -1;
    }
    assert.ok(sum > 0);
    assert.ok(spent >= 30, `CPU since the mark: ${spent} ms`);
  });

  it("reads nothing for a thread that does not exist", () => {
    assert.equal(cpuSince({ tid: 2 ** 30, usedMs: 0 }), undefined);
  });
});
