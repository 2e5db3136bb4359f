/**
 * The draft of one build that `onServer` hooks may edit (docs/design.md §4 rule 12). Each hook runs against the
 * draft in load order; if it throws, everything it changed on this build is put back and the build goes on.
 */
import { extensionError } from "../../errors.js";
import type { PromptSpec, ResourceSpec, ResourceTemplateSpec, ServerDraft } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import type { BuildContents, DraftToolEntry, Placed } from "./draft-types.js";

interface DraftState {
  tools: DraftToolEntry[];
  resources: Placed<ResourceSpec>[];
  resourceTemplates: Placed<ResourceTemplateSpec>[];
  prompts: Placed<PromptSpec>[];
  instructions: string | undefined;
}

function snapshot(state: DraftState): DraftState {
  return {
    tools: state.tools.map((t) => ({ ...t })),
    resources: [...state.resources],
    resourceTemplates: [...state.resourceTemplates],
    prompts: [...state.prompts],
    instructions: state.instructions,
  };
}

function removeWhere<T>(list: T[], match: (item: T) => boolean): boolean {
  const index = list.findIndex(match);
  if (index < 0) return false;
  list.splice(index, 1);
  return true;
}

function draftOver(state: DraftState, key: string, toolsets: readonly string[]): ServerDraft {
  return {
    key,
    toolsets,
    get instructions() {
      return state.instructions;
    },
    set instructions(value: string | undefined) {
      state.instructions = value;
    },
    tools: () => state.tools,
    removeTool: (name) => removeWhere(state.tools, (t) => t.name === name),
    updateTool: (name, changes) => {
      const tool = state.tools.find((t) => t.name === name);
      if (!tool) return false;
      Object.assign(tool, changes);
      // A handler onServer puts in runs where onServer runs it: on the main thread.
      if (changes.handler !== undefined) tool.isolated = false;
      return true;
    },
    resources: () => state.resources.map((r) => r.spec),
    removeResource: (uri) => removeWhere(state.resources, (r) => r.spec.uri === uri),
    resourceTemplates: () => state.resourceTemplates.map((r) => r.spec),
    removeResourceTemplate: (uriTemplate) => removeWhere(state.resourceTemplates, (r) => r.spec.uriTemplate === uriTemplate),
    prompts: () => state.prompts.map((p) => p.spec),
    removePrompt: (name) => removeWhere(state.prompts, (p) => p.spec.name === name),
    replacePrompt: (name, spec) => {
      const index = state.prompts.findIndex((p) => p.spec.name === name);
      if (index < 0) return false;
      state.prompts[index] = { ...state.prompts[index]!, spec };
      return true;
    },
  };
}

/**
 * Runs every participant's `onServer` on the draft and returns what is left to compile.
 * @example
 * const final = runOnServerHooks(contents, instructions, key, active, logger);
 */
export function runOnServerHooks(
  contents: BuildContents,
  instructions: string | undefined,
  key: string,
  active: readonly string[],
  logger: Logger,
): DraftState {
  let state: DraftState = {
    tools: contents.tools,
    resources: contents.resources,
    resourceTemplates: contents.resourceTemplates,
    prompts: contents.prompts,
    instructions,
  };
  for (const record of contents.participants) {
    const hook = record.extension.onServer;
    if (typeof hook !== "function") continue;
    const before = snapshot(state);
    try {
      const result: unknown = hook.call(record.extension, draftOver(state, key, active));
      if (result instanceof Promise) {
        result.catch(() => {});
        throw new Error("onServer returned a promise; it must be synchronous (it runs inside a build)");
      }
    } catch (error) {
      state = before;
      const failure = extensionError(
        "EXTENSION_HOOK_FAILED",
        record.name,
        `onServer threw for build "${key}"; its changes to this build were discarded`,
        error,
      );
      logger.warn(failure.message, { code: failure.code, extension: record.name });
    }
  }
  return state;
}
