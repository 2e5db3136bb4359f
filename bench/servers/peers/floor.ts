/**
 * The floor: bare node:http that parses the JSON-RPC body and writes the fixed answer — the echo result for
 * `tools/call`, a tools list serialised once at start for `tools/list`, a made-up session for `initialize`. No MCP
 * machinery at all: what any MCP server must at least spend on HTTP and JSON.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { z } from "zod";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraTools } from "../tools.js";
import { listenLoopback, parseError, readJson } from "./node-http.js";

interface RpcBody {
  id?: string | number;
  method?: string;
  params?: { name?: string; protocolVersion?: string; arguments?: { text?: unknown } };
}

function reply(res: ServerResponse, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers }).end(text);
}

export const startFloor: PeerStarter = async (config) => {
  const tools = [{ name: ECHO_NAME, description: ECHO_DESCRIPTION, inputSchema: z.toJSONSchema(echoInput) }];
  for (const tool of extraTools(config.extraTools))
    tools.push({ name: tool.name, description: tool.description, inputSchema: z.toJSONSchema(tool.inputSchema) });
  const listJson = JSON.stringify({ tools });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "DELETE") return void res.writeHead(200).end();
    const body = (await readJson(req)) as RpcBody | undefined;
    if (!body || typeof body.method !== "string") return parseError(res);
    const id = JSON.stringify(body.id ?? null);
    if (body.id === undefined) return void res.writeHead(202).end(); // a notification
    switch (body.method) {
      case "tools/call":
        if (body.params?.name !== ECHO_NAME || typeof body.params.arguments?.text !== "string") return parseError(res);
        return reply(res, `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(echoResult(body.params.arguments.text))}}`);
      case "tools/list":
        return reply(res, `{"jsonrpc":"2.0","id":${id},"result":${listJson}}`);
      case "initialize": {
        const result = {
          protocolVersion: body.params?.protocolVersion ?? "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "bench", version: "1.0.0" },
        };
        return reply(res, `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result)}}`, { "mcp-session-id": randomUUID() });
      }
      default:
        return parseError(res);
    }
  };
  return listenLoopback(createServer((req, res) => void handle(req, res)));
};
