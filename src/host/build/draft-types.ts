/**
 * The shapes a build passes along its pipeline — gathered contents, draft tools, placed resources and prompts —
 * kept apart from the steps so that each step imports them and no step imports another for its types.
 */
import type { DraftTool, McpExtension, PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolHandler, ToolSpec } from "../../extension/types.js";
import type { ExtensionRecord } from "../extensions/extension-record.js";
import type { PlacedSkill } from "../../skills/skill-table.js";

/** A tool on a draft, with the spec it came from (for its schemas and timeout). */
export interface DraftToolEntry extends DraftTool {
  spec: ToolSpec<any>;
  /** Its handler runs in a worker (tool extensions may wrap it on the main thread). */
  isolated?: boolean;
}

/** Gives the stand-in handler of a tool that runs in a worker, or undefined for one that runs on the main thread. */
export type IsolateTool = (extension: McpExtension, spec: ToolSpec<any>) => ToolHandler | undefined;

/** A resource, template or prompt with the toolset and extension it belongs to. */
export interface Placed<T> {
  spec: T;
  toolset: string;
  extension: string;
}

/** The raw contents of one build, before `onServer` and compilation. */
export interface BuildContents {
  tools: DraftToolEntry[];
  resources: Placed<ResourceSpec>[];
  resourceTemplates: Placed<ResourceTemplateSpec>[];
  prompts: Placed<PromptSpec>[];
  /** Skills of the gathered toolsets (docs/skills.md); the build keeps those of its active toolsets. */
  skills: PlacedSkill[];
  /** Ready extensions that declared an active toolset or contributed to one, in load order. */
  participants: ExtensionRecord[];
}
