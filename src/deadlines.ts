/**
 * Deadlines without a timer each: every budget of the same length on one clock (a tool's 60 s timeout, taken by
 * every call of it) waits in one list, in the order it was set — which is the order it runs out — behind one timer
 * armed for the list's head. Setting and clearing a deadline is a link in and out of the list; the timer is re-armed
 * only when it fires. Under load that is thousands of calls sharing one timer instead of making and clearing one each.
 */
import type { Clock, ClockTimer } from "./clock.js";

/** A deadline that was set: clear it once the work it bounds is done. */
export interface Deadline {
  clear(): void;
}

interface Entry {
  readonly at: number;
  readonly expire: () => void;
  prev: Entry | undefined;
  next: Entry | undefined;
  list: DeadlineList | undefined;
}

/** The deadlines of one budget length: set in order, so they run out in order. */
class DeadlineList {
  private head: Entry | undefined;
  private tail: Entry | undefined;
  private timer: ClockTimer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
  ) {}

  add(expire: () => void): Deadline {
    const entry: Entry = { at: this.clock.now() + this.ms, expire, prev: this.tail, next: undefined, list: this };
    if (this.tail === undefined) this.head = entry;
    else this.tail.next = entry;
    this.tail = entry;
    if (this.timer === undefined) this.arm(this.ms);
    return { clear: () => this.remove(entry) };
  }

  private remove(entry: Entry): void {
    if (entry.list !== this) return;
    entry.list = undefined;
    if (entry.prev === undefined) this.head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) this.tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = entry.next = undefined;
    // An emptied list lets its timer go (a timer kept would fire for nothing, or hold a test's manual clock).
    if (this.head === undefined) {
      this.timer?.clear();
      this.timer = undefined;
    }
  }

  private arm(ms: number): void {
    // keepAlive: a call in flight keeps the process up until its budget ends, as its own timer did.
    this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, ms), true);
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    // A clock that went back a little fires late, never early: only what is due now runs out.
    while (this.head !== undefined && this.head.at <= now) {
      const due = this.head;
      this.remove(due);
      try {
        due.expire();
      } catch (error) {
        // One expiry that throws must not keep the others from running out; its error still surfaces.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    if (this.head !== undefined && this.timer === undefined) this.arm(this.head.at - now);
  }
}

const listsByClock = new WeakMap<Clock, Map<number, DeadlineList>>();

/**
 * Runs `expire` once `ms` have passed on `clock`, unless cleared first.
 * @example
 * const deadline = setDeadline(host.clock, 60_000, () => controller.abort()); … deadline.clear();
 */
export function setDeadline(clock: Clock, ms: number, expire: () => void): Deadline {
  let lists = listsByClock.get(clock);
  if (lists === undefined) {
    lists = new Map();
    listsByClock.set(clock, lists);
  }
  let list = lists.get(ms);
  if (list === undefined) {
    list = new DeadlineList(clock, ms);
    lists.set(ms, list);
  }
  return list.add(expire);
}
