/**
 * A local twin of mcp-host's `defineTool`: the plugin imports only types from mcp-host (the host is not a run-time
 * dependency of its plugins), so this identity function gives a tool its inferred argument types.
 */
import type { ToolSpec } from "mcp-host";

export function tool<S extends NonNullable<ToolSpec["inputSchema"]>>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}

/** Annotations shared by the units tools: they compute, touching nothing outside. */
export const pureAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
