// The record of used request states (issue 30 finding 5): each id is accepted once while its state could verify; the
// table stays bounded under a flood, and an id it drops can never be accepted again (every state issued before it is
// refused from then on); in a fleet the shared claim decides first, and when it cannot tell, this instance's own
// record still refuses what it has seen.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createManualClock } from "../../../src/manual-clock.js";
import { UsedStates, type SharedClaims } from "../../../src/host/protocol/used-states.js";

const TTL = 600_000;

describe("used request states", () => {
  it("accepts an id once, and refuses a state past its TTL", async () => {
    const clock = createManualClock(1_000_000);
    const used = new UsedStates({ clock, ttlMs: TTL });
    assert.equal(await used.claim("a", clock.now()), true);
    assert.equal(await used.claim("a", clock.now()), false);
    const issued = clock.now();
    clock.advance(TTL);
    assert.equal(await used.claim("b", issued), false, "a state as old as its TTL is refused");
  });

  it("stays bounded under a flood, and never accepts a dropped id again", async () => {
    const clock = createManualClock(1_000_000);
    const used = new UsedStates({ clock, ttlMs: TTL, max: 100 });
    const issuedAt = (i: number) => 1_000_000 + i;
    clock.advance(1_000);
    for (let i = 0; i < 1_000; i++) assert.equal(await used.claim(`id-${i}`, issuedAt(i)), true, `id-${i}`);
    assert.ok(used.size <= 100, `held ${used.size}`);
    for (let i = 0; i < 1_000; i++) assert.equal(await used.claim(`id-${i}`, issuedAt(i)), false, `id-${i} again`);
    assert.equal(await used.claim("later", issuedAt(2_000)), true, "a state issued after the dropped ones is accepted");
  });

  it("lets expired ids go before it drops any", async () => {
    const clock = createManualClock(1_000_000);
    const used = new UsedStates({ clock, ttlMs: TTL, max: 10 });
    for (let i = 0; i < 10; i++) await used.claim(`old-${i}`, clock.now());
    clock.advance(TTL + 2_000);
    assert.equal(await used.claim("new-0", clock.now()), true);
    assert.equal(used.size, 1, "the expired ids were swept, not counted against the bound");
    assert.equal(await used.claim("new-1", clock.now() - 1), true, "nothing was dropped, so nothing recent is refused");
  });

  it("takes the fleet's claim first, and its own record when the fleet cannot tell", async () => {
    const clock = createManualClock(1_000_000);
    const answers: Array<boolean | undefined> = [true, false, undefined, undefined];
    const asked: Array<[string, number]> = [];
    const shared: SharedClaims = {
      claim: async (id, ttlMs) => {
        asked.push([id, ttlMs]);
        return answers.shift();
      },
    };
    const used = new UsedStates({ clock, ttlMs: TTL, shared });
    assert.equal(await used.claim("a", clock.now()), true, "the fleet's first claim");
    assert.equal(await used.claim("b", clock.now()), false, "another instance used it");
    assert.equal(await used.claim("c", clock.now()), true, "the fleet cannot tell: this instance has not seen it");
    assert.equal(await used.claim("c", clock.now()), false, "…and refuses it the second time on its own");
    assert.deepEqual(
      asked.map(([id, ttl]) => [id, ttl]),
      [
        ["a", TTL],
        ["b", TTL],
        ["c", TTL],
      ],
    );
  });
});
