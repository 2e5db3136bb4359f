/**
 * Connects a real SDK v2 client to one selection of a host, in-process: the legacy era over a linked in-memory
 * transport pair (as a 2025 session would see it), the modern era through the SDK's createMcpHandler with the
 * client pinned to 2026-07-28. Tests use it to exercise builds without HTTP.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, InMemoryTransport } from "@modelcontextprotocol/server";
import type { McpHost } from "../../src/host/host.js";
import { parseSelection } from "../../src/host/selection.js";

export interface InProcessConnection {
  client: Client;
  close(): Promise<void>;
}

export async function connectInProcess(
  host: McpHost,
  query = "",
  options: { era?: "legacy" | "modern"; capabilities?: Record<string, unknown> } = {},
): Promise<InProcessConnection> {
  const era = options.era ?? "legacy";
  const built = await host.build(parseSelection(query));
  const capabilities = (options.capabilities ?? { elicitation: { form: {} }, sampling: {} }) as never;
  if (era === "legacy") {
    const server = built.createServer({ era: "legacy", subscriptions: new Set() });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test-client", version: "1.0.0" }, { capabilities });
    await client.connect(clientSide);
    return {
      client,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  }
  const handler = createMcpHandler(async () => {
    const current = await host.build(parseSelection(query));
    return current.createServer({ era: "modern" });
  });
  const client = new Client({ name: "test-client", version: "1.0.0" }, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://in-process.test/mcp"), { fetch: (url, init) => handler.fetch(new Request(url, init)) }),
  );
  return {
    client,
    close: async () => {
      await client.close();
      await handler.close();
    },
  };
}
