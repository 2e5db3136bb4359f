/**
 * Small node:http helpers the hand-wired peers share: read a JSON body (listeners, not `for await`: cheaper),
 * listen on 127.0.0.1:0 and close with every keep-alive connection.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The parsed JSON body; undefined when it is empty or not JSON. */
export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("error", () => resolve(undefined));
    req.on("end", () => {
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

export function parseError(res: ServerResponse): void {
  res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}');
}

/** Listens on 127.0.0.1:0; `close` also ends keep-alive connections (after `onClose`). */
export async function listenLoopback(http: HttpServer, onClose: () => Promise<void> = async () => {}) {
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    await onClose();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, close };
}

/** A port that was free a moment ago, for servers that cannot be told to listen on port 0. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
