// Deadlines share one timer per budget length on a clock (src/deadlines.ts): each runs out at its own time, never early,
// a cleared one never runs, and the list keeps no timer once it is empty. (An expiry that throws is rethrown on its
// own, after the others ran: not tested here, as the test runner takes any uncaught error for a failure.)
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { setDeadline } from "../src/deadlines.js";
import { ManualClock } from "../src/manual-clock.js";
import { raceTimeout } from "../src/timeout.js";

describe("setDeadline", () => {
  it("runs each deadline out at its own time, in order, behind one timer", async () => {
    const clock = new ManualClock();
    const ran: string[] = [];
    setDeadline(clock, 100, () => ran.push("a"));
    await clock.advance(30);
    setDeadline(clock, 100, () => ran.push("b"));
    await clock.advance(30);
    setDeadline(clock, 100, () => ran.push("c"));
    assert.equal(clock.timers, 1, "three deadlines of one length, one timer");
    await clock.advance(39);
    assert.deepEqual(ran, [], "none runs out a millisecond early");
    await clock.advance(1);
    assert.deepEqual(ran, ["a"]);
    await clock.advance(30);
    assert.deepEqual(ran, ["a", "b"]);
    await clock.advance(29);
    assert.deepEqual(ran, ["a", "b"]);
    await clock.advance(1);
    assert.deepEqual(ran, ["a", "b", "c"]);
    assert.equal(clock.timers, 0, "an empty list keeps no timer");
  });

  it("never runs a cleared deadline, whether it was first, in the middle or last", async () => {
    const clock = new ManualClock();
    const ran: number[] = [];
    const deadlines = [0, 1, 2, 3, 4].map((n) => setDeadline(clock, 50, () => ran.push(n)));
    deadlines[0]!.clear();
    deadlines[2]!.clear();
    deadlines[4]!.clear();
    deadlines[2]!.clear(); // twice: nothing more happens
    await clock.advance(50);
    assert.deepEqual(ran, [1, 3]);
    const alone = setDeadline(clock, 50, () => ran.push(9));
    alone.clear();
    assert.equal(clock.timers, 0, "clearing the last deadline lets the timer go");
    await clock.advance(100);
    assert.deepEqual(ran, [1, 3]);
  });

  it("keeps budgets of different lengths apart, each on its own timer", async () => {
    const clock = new ManualClock();
    const ran: string[] = [];
    setDeadline(clock, 200, () => ran.push("long"));
    setDeadline(clock, 10, () => ran.push("short"));
    setDeadline(clock, 10, () => ran.push("short again"));
    assert.equal(clock.timers, 2);
    await clock.advance(10);
    assert.deepEqual(ran, ["short", "short again"]);
    await clock.advance(189);
    assert.deepEqual(ran, ["short", "short again"]);
    await clock.advance(1);
    assert.deepEqual(ran, ["short", "short again", "long"]);
  });
});

describe("raceTimeout on shared deadlines", () => {
  it("answers the work's value, its rejection, or the timeout, and leaves no timer behind", async () => {
    const clock = new ManualClock();
    assert.deepEqual(await raceTimeout(Promise.resolve(7), 1_000, clock), { timedOut: false, value: 7 });
    await assert.rejects(raceTimeout(Promise.reject(new Error("no")), 1_000, clock), /no/);
    let expired = 0;
    const hanging = raceTimeout(new Promise<never>(() => {}), 1_000, clock, () => (expired += 1));
    const late = raceTimeout(new Promise<never>((_, reject) => clock.setTimeout(() => reject(new Error("after the budget")), 1_500)), 1_000, clock);
    await clock.advance(1_000);
    assert.deepEqual(await hanging, { timedOut: true });
    assert.deepEqual(await late, { timedOut: true }, "a rejection after expiry is ignored");
    assert.equal(expired, 1);
    await clock.advance(500);
    assert.equal(clock.timers, 0);
  });
});
