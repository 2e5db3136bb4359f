/**
 * A local twin of mcp-host's `defineTool`: the plugin imports only types from mcp-host (the host is not a run-time
 * dependency of its plugins), so this identity function gives a tool its type.
 */
import type { ToolSpec } from "mcp-host";

export function tool<S extends NonNullable<ToolSpec["inputSchema"]>>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}

/** An input schema that takes no arguments. */
export const NO_ARGUMENTS = { type: "object", properties: {} } as const;

/** Reads a string argument validated by the host against the tool's JSON Schema. */
export function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  return typeof value === "string" ? value : "";
}
