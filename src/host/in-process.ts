/**
 * A real MCP client connected to one selection of a host, in the same process and without HTTP: what an extension
 * author's test needs. The 2025 era goes over a linked in-memory transport pair (as a session would), the
 * 2026-07-28 era through the SDK's own request handler with the client pinned to that revision.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, InMemoryTransport } from "@modelcontextprotocol/server";
import type { McpHost } from "./host.js";
import { parseSelection } from "./selection.js";
import { SessionSubscriptions } from "./protocol/subscriptions.js";

/** A connected client and how to close it (and its server). */
export interface InProcessConnection {
  client: Client;
  close(): Promise<void>;
}

/** Options for `connectInProcess`. */
export interface InProcessOptions {
  /** Which protocol era to speak (default `legacy`, the 2025 handshake most clients still use). */
  era?: "legacy" | "modern";
  /** What the client declares it can do (default: elicitation and sampling). */
  capabilities?: Record<string, unknown>;
}

/**
 * @example
 * const { client, close } = await connectInProcess(host, "only=notes");
 * const { tools } = await client.listTools(); await close();
 */
export async function connectInProcess(host: McpHost, query = "", options: InProcessOptions = {}): Promise<InProcessConnection> {
  const era = options.era ?? "legacy";
  const capabilities = (options.capabilities ?? { elicitation: { form: {} }, sampling: {} }) as never;
  if (era === "legacy") {
    const built = await host.build(parseSelection(query));
    const server = built.createServer({ era: "legacy", subscriptions: new SessionSubscriptions() });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "in-process", version: "1.0.0" }, { capabilities });
    await client.connect(clientSide);
    return {
      client,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  }
  const handler = createMcpHandler(async () => (await host.build(parseSelection(query))).createServer({ era: "modern" }));
  const client = new Client({ name: "in-process", version: "1.0.0" }, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://in-process.invalid/mcp"), { fetch: (url, init) => handler.fetch(new Request(url, init)) }),
  );
  return {
    client,
    close: async () => {
      await client.close();
      await handler.close();
    },
  };
}
