// One caller's share of the gateway's paused calls (issue 17 class 3, docs/design.md §11): a 2025 upstream's question
// pauses the call until its client's next round, and a client that never comes back holds its place for
// `pendingInputTtlMs` (10 minutes). The places are bounded per server (256); without a share, one caller that asks
// and never answers could hold all of them and every other caller's questions were refused. Now one owner (a
// token's subject, else a legacy session) holds at most 32; another owner still has room; places come back as
// calls are taken, cancelled or time out. (Over one shared 2025 connection a question names no call, so while two
// calls are in flight a question is refused as ambiguous — docs/gateway.md; the share bounds what can wait.)
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PausedCalls } from "../../src/upstream/calls/paused-calls.js";
import { UpstreamCall } from "../../src/upstream/calls/upstream-call.js";
import { ManualClock } from "../helpers/manual-clock.js";

const TTL = 600_000;
/** The documented bounds (docs/gateway.md): places per server, and one owner's share of them. */
const MAX_PAUSED_CALLS = 256;
const MAX_PAUSED_CALLS_PER_OWNER = 32;
const owner = (subject: string) => JSON.stringify(["token", "https://as.example", subject, "app"]);

/** Pauses as many of `who`'s calls as it has room for, up to `tries`; returns how many waited. */
function pauseUpTo(paused: PausedCalls, who: string, tries: number): { waited: UpstreamCall[]; refused: number } {
  const waited: UpstreamCall[] = [];
  let refused = 0;
  for (let i = 0; i < tries; i++) {
    if (!paused.hasRoom(who)) {
      refused += 1;
      continue;
    }
    const call = new UpstreamCall(who);
    paused.keep(call);
    waited.push(call);
  }
  return { waited, refused };
}

describe("paused calls, per caller", () => {
  it("holds one owner to its share, leaves room for others, and gives places back", async () => {
    const clock = new ManualClock();
    const paused = new PausedCalls(clock, TTL);
    const alice = pauseUpTo(paused, owner("alice"), MAX_PAUSED_CALLS_PER_OWNER + 50);
    assert.deepEqual([alice.waited.length, alice.refused], [MAX_PAUSED_CALLS_PER_OWNER, 50]);
    assert.ok(paused.hasRoom(owner("bob")), "bob still has room");
    // The same subject through another client, or of another issuer, is another owner; a session is one too.
    assert.ok(paused.hasRoom(JSON.stringify(["token", "https://other.example", "alice", "app"])));
    assert.ok(paused.hasRoom(JSON.stringify(["session", "s-1"])));
    assert.deepEqual(paused.held, { calls: MAX_PAUSED_CALLS_PER_OWNER, owners: 1 });
    // A place comes back when its client returns, and when its time runs out.
    paused.take(alice.waited[0]!.id);
    assert.ok(paused.hasRoom(owner("alice")));
    paused.keep(new UpstreamCall(owner("alice")));
    assert.equal(paused.hasRoom(owner("alice")), false);
    await clock.advance(TTL + 1);
    assert.deepEqual(paused.held, { calls: 0, owners: 0 }, "every abandoned call was cancelled, and forgotten");
    assert.ok(paused.hasRoom(owner("alice")));
  });

  it("still bounds the server's places in all, however many owners ask", () => {
    const paused = new PausedCalls(new ManualClock(), TTL);
    let waited = 0;
    for (let i = 0; i < 20; i++) waited += pauseUpTo(paused, owner(`user-${i}`), MAX_PAUSED_CALLS_PER_OWNER).waited.length;
    assert.equal(waited, MAX_PAUSED_CALLS);
    assert.equal(paused.hasRoom(owner("late")), false);
    paused.clear("the server was removed");
    assert.deepEqual(paused.held, { calls: 0, owners: 0 });
  });
});
