// A call to a tool the build does not serve is a protocol error naming the tools on offer — and, when the tool's
// own extension failed to start, saying so (issue 10 item 6): the toolset is in the URL, the tool is just not
// there, and "outside this URL's toolsets" would send the caller looking in the wrong place.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { startedHost, textTool } from "../../helpers/kit.js";

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

const fragile: McpExtension = {
  name: "fragile",
  toolsets: [{ name: "fragile" }],
  tools: [textTool("fragile_tool")],
  setup: () => {
    throw new Error("no database");
  },
};
const other: McpExtension = { name: "other", toolsets: [{ name: "other", default: false }], tools: [textTool("other_tool")] };

describe("an unknown tool", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`says the tool's extension failed when it did, and that the URL does not select it otherwise (${era})`, async () => {
      ({ host } = await startedHost([fragile, other]));
      const { client, close } = await connectInProcess(host, "only=fragile", { era });
      try {
        await assert.rejects(client.callTool({ name: "fragile_tool", arguments: {} }), (e: Error) =>
          e.message.includes(
            'Unknown tool "fragile_tool". Available: list_server_toolsets. Its extension "fragile" failed to start (EXTENSION_SETUP_FAILED), so the tool is not served; /healthz and list_server_toolsets say why.',
          ),
        );
        await assert.rejects(client.callTool({ name: "other_tool", arguments: {} }), (e: Error) =>
          e.message.includes('Unknown tool "other_tool". Available: list_server_toolsets. A tool outside this URL\'s toolsets is not callable here.'),
        );
      } finally {
        await close();
      }
    });
  }
});
