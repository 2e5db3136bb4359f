/**
 * What one upstream server contributes to the host: its toolset (named after it; title, description and `default`
 * from the config, instructions from the upstream), its tools after `include` / `exclude` (the registry already hid
 * `deniedTools`), its resources, resource templates, prompts and skills — each handler a pass-through to the one shared
 * connection (a skill's files are checked against its entry on the way). Built once per listing: the upstream's schema objects are handed over as they are, so the host
 * compiles each once, and a call does no schema work here.
 */
import type { DynamicOffer, PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolSpec, ToolsetSpec } from "../../extension/types.js";
import type { RegistryPrompt, RegistryResource, RegistryResourceTemplate, RegistryTool } from "../../registry/index.js";
import { getUpstreamPrompt, readUpstream } from "../calls/read-handlers.js";
import { upstreamToolHandler, type ServerCalls } from "../calls/tool-handler.js";
import { legacyTaskSupport } from "../calls/legacy-task-relay.js";
import { upstreamSkill } from "../calls/skill-handler.js";
import type { Skill } from "@modelcontextprotocol/client/ext/skills";
import type { GatewayServerConfig } from "../gateway-options.js";
import type { ToolFilter } from "./tool-filter.js";
import { defined } from "../../defined.js";

/** One server's listing, as the registry gives it. */
export interface ServerListing {
  tools: readonly RegistryTool[];
  resources: readonly RegistryResource[];
  templates: readonly RegistryResourceTemplate[];
  prompts: readonly RegistryPrompt[];
  /**
   * The tasks it can run: `modern` when it speaks 2026-07-28 and declares the tasks extension (task-relay.ts), every
   * tool may then answer with a task; `legacy` when it speaks 2025-11-25 and runs tool calls as its experimental
   * tasks (legacy-task-relay.ts), for the tools it marks so.
   */
  tasks?: "modern" | "legacy";
  /** Its skills, when it declares the skills extension (SEP-2640). */
  skills?: readonly Skill[];
  instructions?: string;
}

/** A server's part of the gateway's offer. */
export type ServerOffer = Required<DynamicOffer>;

/** The registry's idle timeout default, for the host's per-tool timeout when the config sets none. */
const REGISTRY_DEFAULT_TIMEOUT_MS = 60_000;
/** Room left after the registry's own total cap, so its timeout (which says more) is the one a caller sees. */
const HOST_TIMEOUT_MARGIN_MS = 5_000;

/** The toolset alone (a server that is not listed yet, or never connected, still declares it). */
export function toolsetOf(server: string, config: GatewayServerConfig, instructions?: string): ToolsetSpec {
  return {
    name: server,
    ...defined({ title: config.title, description: config.description, instructions }),
    default: config.default ?? true,
  };
}

function toolSpec(server: string, calls: ServerCalls, tool: RegistryTool, timeoutMs: number, taskSurface: "modern" | "legacy" | undefined): ToolSpec {
  const tasks = taskSurface === "modern" || (taskSurface === "legacy" && legacyTaskSupport(calls.registry, server, tool.definition) !== undefined);
  const d = tool.definition;
  return {
    name: tool.name,
    toolset: server,
    ...defined({ title: d.title, description: d.description }),
    inputSchema: d.inputSchema as never,
    ...(d.outputSchema === undefined ? {} : { outputSchema: d.outputSchema as never }),
    ...defined({ annotations: d.annotations, meta: d._meta }),
    timeoutMs,
    // The host makes a task of the call when its client declared the extension; the upstream's task is relayed in it.
    // (A 2025 tool that requires a task is offered as optional too: a client without tasks gets its result on the request.)
    ...(tasks ? { taskSupport: "optional" as const } : {}),
    validateOutput: false, // the registry checked it, under the server's structuredContent policy
    handler: upstreamToolHandler(calls, tool),
  };
}

function resourceSpec(calls: ServerCalls, server: string, resource: RegistryResource): ResourceSpec {
  const d = resource.definition;
  return {
    uri: resource.upstreamUri,
    name: d.name,
    toolset: server,
    ...defined({ title: d.title, description: d.description, mimeType: d.mimeType, size: d.size, annotations: d.annotations, meta: d._meta }),
    read: (ctx) => readUpstream(calls, server, resource.upstreamUri, ctx),
  };
}

function templateSpec(calls: ServerCalls, server: string, template: RegistryResourceTemplate): ResourceTemplateSpec {
  const d = template.definition;
  return {
    uriTemplate: d.uriTemplate,
    name: d.name,
    toolset: server,
    ...defined({ title: d.title, description: d.description, mimeType: d.mimeType, annotations: d.annotations, meta: d._meta }),
    read: (uri, _variables, ctx) => readUpstream(calls, server, uri, ctx),
  };
}

function promptSpec(calls: ServerCalls, server: string, prompt: RegistryPrompt): PromptSpec {
  const d = prompt.definition;
  return {
    name: prompt.name,
    toolset: server,
    ...defined({ title: d.title, description: d.description, arguments: d.arguments, meta: d._meta }),
    get: (args, ctx) => getUpstreamPrompt(calls, server, prompt.name, args, ctx),
  };
}

/**
 * @example
 * const offer = serverOffer({ server: "fs", config, calls, listing, filter });
 * ctx.replaceOffer({ toolsets: [offer.toolsets[0]], tools: offer.tools, … });
 */
export function serverOffer(parts: {
  server: string;
  config: GatewayServerConfig;
  calls: ServerCalls;
  listing: ServerListing;
  filter: ToolFilter;
}): ServerOffer {
  const { server, config, calls, listing, filter } = parts;
  const idle = config.timeoutMs ?? REGISTRY_DEFAULT_TIMEOUT_MS;
  const timeoutMs = (config.maxTotalTimeoutMs ?? idle * 10) + HOST_TIMEOUT_MARGIN_MS;
  // A skill's files are served as skills (checked against their entry), not as plain resources beside them.
  const skillFiles = new Set((listing.skills ?? []).flatMap((skill) => (skill.resources === "dynamic" ? [] : skill.resources.map((file) => file.uri))));
  return {
    toolsets: [toolsetOf(server, config, listing.instructions)],
    tools: listing.tools.filter((t) => filter.keeps(t.upstreamName)).map((t) => toolSpec(server, calls, t, timeoutMs, listing.tasks)),
    resources: listing.resources.filter((r) => !skillFiles.has(r.upstreamUri)).map((r) => resourceSpec(calls, server, r)),
    resourceTemplates: listing.templates.map((t) => templateSpec(calls, server, t)),
    prompts: listing.prompts.map((p) => promptSpec(calls, server, p)),
    skills: (listing.skills ?? []).map((skill) => upstreamSkill(calls, skill)),
  };
}
