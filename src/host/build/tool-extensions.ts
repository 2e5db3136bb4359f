/**
 * Applies tool extensions to a tool offered by any extension (docs/design.md §4 rule 7): in load order, later title
 * and description win, the last `wrap` is the outermost. A tool extension that throws, or whose `wrap` returns
 * something that is not a function, leaves the tool out: one that narrows a tool and fails would otherwise widen it.
 */
import { extensionError } from "../../errors.js";
import type { ToolExtension, ToolHandler } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import type { DraftToolEntry } from "./draft-types.js";

/** A tool extension and the extension that contributed it. */
export interface PlacedToolExtension {
  extension: string;
  spec: ToolExtension;
}

/**
 * Returns the extended tool, or undefined when a tool extension failed (logged with both extension names).
 * @example
 * const extended = applyToolExtensions(tool, byTool.get(tool.name) ?? [], logger);
 */
export function applyToolExtensions(tool: DraftToolEntry, extensions: readonly PlacedToolExtension[], logger: Logger): DraftToolEntry | undefined {
  let current: DraftToolEntry = { ...tool };
  for (const { extension, spec } of extensions) {
    try {
      const next: DraftToolEntry = { ...current };
      if (spec.title !== undefined) next.title = spec.title;
      if (spec.description !== undefined) next.description = spec.description;
      if (spec.annotations !== undefined) next.annotations = { ...current.annotations, ...spec.annotations };
      if (spec.meta !== undefined) next.meta = { ...current.meta, ...spec.meta };
      if (spec.wrap !== undefined) {
        const wrapped: unknown = spec.wrap(current.handler);
        if (typeof wrapped !== "function") {
          throw new Error(`wrap() returned ${wrapped === null ? "null" : typeof wrapped}, not a handler function`);
        }
        next.handler = wrapped as ToolHandler;
      }
      current = next;
    } catch (error) {
      const failure = extensionError(
        "TOOL_EXTENSION_FAILED",
        extension,
        `tool extension of "${tool.name}" (offered by extension "${tool.extension}") failed, so the tool is left out`,
        error,
      );
      logger.warn(failure.message, { code: failure.code, extension, tool: tool.name, offeredBy: tool.extension });
      return undefined;
    }
  }
  return current;
}
