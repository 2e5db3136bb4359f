/**
 * The bounded cache of builds (docs/design.md §7): least-recently-used eviction, one build per key even when many
 * requests ask at once, and targeted invalidation (only builds that include a changed toolset go).
 */

interface Entry<T> {
  promise: Promise<T>;
  toolsets: readonly string[];
}

export class BuildCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Whether `key` is cached (or being built) now; does not touch its recency. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /**
   * The cached build for `key`, or the one `make` starts (shared by concurrent callers).
   * A failed build is not kept, so the next request tries again.
   * @example
   * const built = await cache.getOrBuild("a,b", ["a", "b"], () => compile());
   */
  getOrBuild(key: string, toolsets: readonly string[], make: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.promise;
    }
    const promise = make();
    const entry = { promise, toolsets };
    this.entries.set(key, entry);
    promise.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return promise;
  }

  /** Drops every build that includes one of `toolsets` (all builds when omitted); returns the dropped keys. */
  invalidate(toolsets?: ReadonlySet<string>): string[] {
    const dropped: string[] = [];
    for (const [key, entry] of this.entries) {
      if (!toolsets || entry.toolsets.some((t) => toolsets.has(t))) {
        this.entries.delete(key);
        dropped.push(key);
      }
    }
    return dropped;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }
}
