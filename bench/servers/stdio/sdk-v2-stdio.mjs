// The raw SDK v2 over stdio, as its docs show: `serveStdio` with a factory returning an `McpServer` with the zod
// echo tool (both eras: the opening message picks one). Plain JavaScript run by plain node, like the built
// mcp-host CLI it is compared with in the stdio cold start.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("echo", { description: "Returns its text argument", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
});
