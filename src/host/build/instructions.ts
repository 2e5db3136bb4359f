/**
 * Composes the instructions a build sends: the host's own, then each active toolset's, sorted by toolset name,
 * under a `## {title or name}` heading. A toolset's instructions reach only the selections that include it.
 */
import type { DeclaredToolset } from "../extensions/toolset-catalog.js";

/**
 * @example
 * composeInstructions("Be brief.", toolsets, ["time"]) // "Be brief.\n\n## Time\n\nUse IANA zones."
 */
export function composeInstructions(hostInstructions: string | undefined, declared: readonly DeclaredToolset[], active: readonly string[]): string | undefined {
  const parts: string[] = [];
  if (hostInstructions?.trim()) parts.push(hostInstructions.trim());
  const activeSet = new Set(active);
  for (const toolset of declared) {
    if (!activeSet.has(toolset.name) || !toolset.instructions?.trim()) continue;
    parts.push(`## ${toolset.title ?? toolset.name}\n\n${toolset.instructions.trim()}`);
  }
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}
