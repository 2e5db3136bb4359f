/**
 * A tool whose arguments travel in headers too (SEP-2243): `region` is marked `x-mcp-header: Region`, so a 2026-07-28
 * client sends it as `Mcp-Param-Region` beside the body, and the host refuses a call whose two disagree.
 * Scenario: http-custom-header-server-validation.
 */
import { defineTool, type ToolSpec } from "mcp-host";
import { stringArg } from "./arguments.js";

export const headerTools: ToolSpec<any>[] = [
  defineTool({
    name: "test_header_params",
    description: "Echoes the region it was called for; the region is mirrored into the Mcp-Param-Region header.",
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", description: "Where to run", "x-mcp-header": "Region" } },
      required: ["region"],
    },
    handler: (args) => ({ content: [{ type: "text", text: `region: ${stringArg(args, "region")}` }] }),
  }),
];
