/**
 * Argument helpers shared by the conformance fixtures' tools.
 */

/** An input schema that takes no arguments. */
export const NO_ARGUMENTS = { type: "object", properties: {} } as const;

/** Reads a string argument validated by the host against the tool's JSON Schema. */
export function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  return typeof value === "string" ? value : "";
}
