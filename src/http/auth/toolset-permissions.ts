/**
 * Toolset permissions (docs/design.md §9, `auth.toolsetScopes`): which declared toolsets a token's scopes reach, and
 * which toolsets a selection names that they do not. A toolset with no scopes listed is open to every valid
 * token; one with scopes needs all of them. Pure functions of the scope map, so every rule is pinned by a test.
 */
import { authConfigError } from "./refusals.js";

export type ToolsetScopes = Readonly<Record<string, readonly string[]>>;

export class ToolsetPermissions {
  private readonly scopes: ReadonlyMap<string, readonly string[]>;

  constructor(toolsetScopes: ToolsetScopes = {}) {
    if (typeof toolsetScopes !== "object" || toolsetScopes === null || Array.isArray(toolsetScopes)) {
      throw authConfigError('auth.toolsetScopes must map toolset names to lists of scopes, e.g. { admin: ["mcp:admin"] }');
    }
    const entries = Object.entries(toolsetScopes).map(([toolset, scopes]) => {
      if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((s) => typeof s !== "string" || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) {
        throw authConfigError(`auth.toolsetScopes.${toolset} must be a non-empty list of scope names (no spaces, quotes or backslashes)`);
      }
      return [toolset, [...new Set(scopes)]] as const;
    });
    this.scopes = new Map(entries);
  }

  /** True when some toolset needs a scope. */
  get guarded(): boolean {
    return this.scopes.size > 0;
  }

  /** The guarded toolset names, sorted. */
  get guardedToolsets(): string[] {
    return [...this.scopes.keys()].sort();
  }

  /**
   * The toolsets among `declared` that `granted` reaches, in the order given.
   * @example
   * new ToolsetPermissions({ admin: ["mcp:admin"] }).permitted(["admin", "time"], ["mcp"]) // ["time"]
   */
  permitted(declared: readonly string[], granted: readonly string[]): string[] {
    const have = new Set(granted);
    return declared.filter((toolset) => (this.scopes.get(toolset) ?? []).every((scope) => have.has(scope)));
  }

  /**
   * Every scope the given toolsets need, in first-seen order.
   * @example
   * new ToolsetPermissions({ admin: ["mcp:admin"] }).scopesFor(["time", "admin"]) // ["mcp:admin"]
   */
  scopesFor(toolsets: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const toolset of toolsets) for (const scope of this.scopes.get(toolset) ?? []) out.add(scope);
    return [...out];
  }
}
