// The operator page's latency figures (issue 27): a slot's p95 is the real 95th percentile of its requests while it
// has held few enough to keep (512), and past that never more than its slowest request — a handful of fast requests
// reads what they took, where a bucket's upper bound read "500.0 ms" for one request of 260 ms, and "5.0 ms" for 3 ms.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RequestRates } from "../../src/observe/request-rates.js";

function slotOf(durations: readonly number[]): { requests: number; p95Ms: number; meanMs: number } {
  const now = 1_800_000_000_000;
  const rates = new RequestRates(() => now);
  for (const durationMs of durations) rates.record({ status: 200, durationMs, stream: false });
  return rates.slots().at(-1)!;
}

describe("RequestRates p95", () => {
  it("is the nearest-rank 95th percentile of a handful of requests", () => {
    assert.equal(slotOf([1, 2, 3]).p95Ms, 3);
    assert.equal(slotOf([2, 3, 2, 4, 260]).p95Ms, 260);
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    assert.equal(slotOf(twenty).p95Ms, 19);
  });

  it("past 512 requests, is a bucket's bound but never more than the slowest request", () => {
    assert.equal(slotOf(new Array(600).fill(3)).p95Ms, 3);
    const mixed = [...new Array(500).fill(2), ...new Array(100).fill(40)];
    assert.equal(slotOf(mixed).p95Ms, 40);
  });

  it("leaves a long-lived stream's duration out, and an empty slot at 0", () => {
    const now = 1_800_000_000_000;
    const rates = new RequestRates(() => now);
    rates.record({ status: 200, durationMs: 90_000, stream: true });
    assert.deepEqual(rates.slots().at(-1), { start: now, requests: 1, errors: 0, meanMs: 0, p95Ms: 0 });
    assert.equal(rates.slots()[0]!.p95Ms, 0);
  });
});
