/**
 * The host's revision and what it invalidates (docs/design.md §7, §4 rule 10): every change to what may be on offer
 * bumps the revision, drops the cached builds of the toolsets whose contents changed — all of them when the set
 * of default or always-on toolsets changed, since that changes what every URL resolves to — and, once the host
 * serves, tells listeners once per burst.
 */
import type { BuildCache } from "./build/build-cache.js";
import type { ChangeFeed } from "./extensions/change-feed.js";

export class Revision {
  private value = 0;
  private lastSignature = "";

  /**
   * @param signature which toolsets are default or always-on, as a comparable string
   */
  constructor(
    private readonly cache: BuildCache<unknown>,
    private readonly feed: ChangeFeed,
    private readonly signature: () => string,
  ) {}

  get current(): number {
    return this.value;
  }

  /**
   * Records a change. `toolsets`: the toolsets whose contents changed (undefined: everything may have). `report`:
   * tell listeners (false before the host serves anyone).
   * @example
   * revision.changed(new Set(["time"]), true);
   */
  changed(toolsets: ReadonlySet<string> | undefined, report: boolean): void {
    this.value += 1;
    const signature = this.signature();
    const scope = signature === this.lastSignature ? toolsets : undefined;
    this.lastSignature = signature;
    const dropped = this.cache.invalidate(scope);
    if (report) this.feed.record(scope, dropped, () => this.value);
  }

  /** Stops reporting (host stop): a burst not yet told is dropped. */
  stop(): void {
    this.feed.cancel();
    this.cache.invalidate();
  }
}
