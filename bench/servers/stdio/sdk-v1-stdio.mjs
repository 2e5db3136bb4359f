// The raw SDK v1 (1.32.2) over stdio, as its README shows: an `McpServer` with the zod echo tool connected to a
// `StdioServerTransport` (2025 era only). Plain JavaScript run by plain node.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bench", version: "1.0.0" });
server.registerTool("echo", { description: "Returns its text argument", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
await server.connect(new StdioServerTransport());
