/**
 * A clock that only moves when a test moves it: `advance(ms)` runs every timer that falls due, in time order, so
 * a test of a 30-minute session expiry or a 10-second start-up budget takes no real time and cannot be flaky.
 * Exported for extension authors' tests by `mcp-host/testing`.
 */
import type { Clock, ClockTimer } from "./clock.js";
import { defined } from "./defined.js";

interface Pending {
  id: number;
  at: number;
  every?: number;
  callback: () => void;
}

/** A clock a test moves by hand (see `createManualClock`). */
export class ManualClock implements Clock {
  private time: number;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly armedWaiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    return this.schedule(callback, ms, undefined);
  }

  setInterval(callback: () => void, ms: number): ClockTimer {
    return this.schedule(callback, ms, Math.max(1, ms));
  }

  /** How many timers are waiting (a test can check that a component cleaned up after itself). */
  get timers(): number {
    return this.pending.size;
  }

  /**
   * Resolves once at least `count` timers are waiting: a test waits for the code under test to start its timer (a
   * request that reached a queue, a drain that began) before it moves time, instead of sleeping.
   */
  waitForTimers(count: number): Promise<void> {
    if (this.pending.size >= count) return Promise.resolve();
    return new Promise((resolve) => this.armedWaiters.push({ count, resolve }));
  }

  /**
   * Moves time forward, running each timer that falls due on the way, earliest first; awaits a turn of the event
   * loop after each so promise chains started by a callback settle before the next one fires.
   */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      const due = [...this.pending.values()].filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.at);
      if (due.every === undefined) this.pending.delete(due.id);
      else due.at += due.every;
      due.callback();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.time = target;
  }

  private schedule(callback: () => void, ms: number, every: number | undefined): ClockTimer {
    const id = this.nextId++;
    this.pending.set(id, { id, at: this.time + Math.max(0, ms), callback, ...defined({ every }) });
    for (const waiter of this.armedWaiters.filter((w) => w.count <= this.pending.size)) {
      this.armedWaiters.splice(this.armedWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return { clear: () => void this.pending.delete(id) };
  }
}

/**
 * A manual clock starting at `start` (default 2026-01-01T00:00:00Z). Give it to the host (`HostOptions.clock`) and
 * every deadline and timer of the host, its HTTP app and the gateway runs on it.
 * @example
 * const clock = createManualClock();
 * const host = buildHost([extension], { name: "test", clock, toolTimeoutMs: 60_000 });
 * await host.start();
 * const { client, close } = await connectInProcess(host);
 * const call = client.callTool({ name: "slow", arguments: {} });
 * await clock.waitForTimers(1); // the call's timeout has started
 * await clock.advance(60_000); // (await call).isError: 'tool "slow" timed out after 60000 ms', at once
 */
export function createManualClock(start?: number): ManualClock {
  return new ManualClock(start);
}
