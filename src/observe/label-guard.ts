/**
 * Keeps metric label values bounded (docs/design.md §18): a label is a declared toolset, a tool one of them offers, or a
 * configured server — never a name a client made up. Anything else, and anything past a generous cap on distinct
 * values (a gateway whose upstream lists thousands of tools), is counted as `other`.
 */

/**
 * The value that stands for every name that may not be a label.
 * @example
 * new LabelGuard().tool(undefined, "made_up").tool === OTHER // true
 */
export const OTHER = "other";

/**
 * Most distinct toolsets, tools and servers kept as labels.
 * @example
 * LABEL_CAPS.tools // 2000
 */
export const LABEL_CAPS = { toolsets: 256, tools: 2_000, servers: 256 } as const;

/**
 * @example
 * const guard = new LabelGuard();
 * guard.tool("time", "now") // { toolset: "time", tool: "now" }
 * guard.tool(undefined, "made_up") // { toolset: "other", tool: "other" }
 */
export class LabelGuard {
  private readonly toolsets = new Set<string>();
  private readonly tools = new Set<string>();
  private readonly servers = new Set<string>();

  /** The labels of a tool call: the routed tool's toolset and name, else `other`. */
  tool(toolset: string | undefined, tool: string | undefined): { toolset: string; tool: string } {
    if (toolset === undefined || tool === undefined) return { toolset: OTHER, tool: OTHER };
    const shownToolset = this.admit(this.toolsets, toolset, LABEL_CAPS.toolsets);
    if (shownToolset === OTHER) return { toolset: OTHER, tool: OTHER };
    return { toolset, tool: this.admit(this.tools, `${toolset}\u0000${tool}`, LABEL_CAPS.tools) === OTHER ? OTHER : tool };
  }

  /** An upstream server's label. */
  server(name: string): string {
    return this.admit(this.servers, name, LABEL_CAPS.servers);
  }

  private admit(seen: Set<string>, value: string, cap: number): string {
    if (seen.has(value)) return value;
    if (seen.size >= cap) return OTHER;
    seen.add(value);
    return value;
  }
}
