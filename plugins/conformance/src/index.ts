/**
 * @mcp-host/plugin-conformance: the fixtures the official MCP conformance suite expects of the server it tests
 * (`test_*` tools and prompts, `test://` resources, two Agent Skills), as an ordinary extension, so the suite tests
 * the host end to end — routing, both protocol eras, MRTR and its legacy shim, logging, progress, completion,
 * subscriptions, skills, header parameters.
 * Its toolset is off by default: serve it with `?only=conformance` (see docs/conformance.md).
 */
import { defineTool, type ExtensionContext, type McpExtension } from "mcp-host";
import { contentTools } from "./content-tools.js";
import { headerTools } from "./header-tools.js";
import { inputRequiredPrompts } from "./input-required-prompts.js";
import { inputRequiredTools } from "./input-required-tools.js";
import { interactiveTools } from "./interactive-tools.js";
import { prompts } from "./prompts.js";
import { dataTemplate, staticResources, type WatchedResource } from "./resources.js";
import { WATCHED_URI } from "./fixtures.js";
import { NO_ARGUMENTS } from "./arguments.js";
import { taskTools } from "./task-tools.js";

export const TOOLSET = "conformance";

/**
 * Makes the conformance extension (one watched-resource state per instance).
 * @example
 * const host = buildHost([createConformanceExtension()]); // then serve /mcp?only=conformance
 */
export function createConformanceExtension(): McpExtension {
  const watched: WatchedResource = { text: "Watched resource content", revision: 0 };
  let context: ExtensionContext | undefined;
  const updateWatched = defineTool({
    name: "test_update_watched_resource",
    description: "Changes test://watched-resource and tells the clients subscribed to it (notifications/resources/updated).",
    inputSchema: NO_ARGUMENTS,
    handler: () => {
      watched.revision += 1;
      watched.text = `Watched resource content (revision ${watched.revision})`;
      context?.resourceUpdated(WATCHED_URI);
      return { content: [{ type: "text", text: `test://watched-resource is now at revision ${watched.revision}` }] };
    },
  });
  return {
    name: "conformance",
    version: "0.1.0",
    description: "Fixtures for the official MCP conformance suite: test_* tools and prompts, test:// resources.",
    toolsets: [
      {
        name: TOOLSET,
        title: "Conformance fixtures",
        description: "The tools, resources and prompts the official MCP conformance suite calls. For testing servers, not for models.",
        default: false,
      },
    ],
    tools: [...contentTools, ...headerTools, ...interactiveTools, ...inputRequiredTools, ...taskTools(() => context), updateWatched],
    resources: staticResources(watched),
    resourceTemplates: [dataTemplate],
    prompts: [...prompts, ...inputRequiredPrompts],
    // Every folder of skills/ (conformance-basics, header-params): scenarios sep-2640-skills-enumeration, -manifest, -directory.
    skills: [{ path: new URL("../skills/*", import.meta.url) }],
    setup: (ctx) => {
      context = ctx;
    },
  };
}

export default createConformanceExtension;
