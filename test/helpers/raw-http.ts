/**
 * HTTP as no well-behaved client sends it, for the edge and reliability tests: a request with any target (the
 * absolute form included) and any bytes as its body, and a raw TCP socket that sends what it is told, when it is
 * told, and records what came back and how the connection ended (closed cleanly, or reset).
 */
import { connect, type Socket } from "node:net";
import type { Buffer } from "node:buffer";
import { exchange, type RawResponse } from "./http-host.js";

/**
 * One request whose target is sent exactly as given (`/mcp`, or `http://127.0.0.1:1234/mcp` in absolute form).
 * @example await rawRequest({ port, target: `http://127.0.0.1:${port}/mcp`, method: "POST", headers, body })
 */
export function rawRequest(options: {
  port: number;
  target: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<RawResponse> {
  return exchange(
    { host: "127.0.0.1", port: options.port, path: options.target, method: options.method ?? "GET", headers: options.headers ?? {} },
    options.body,
  );
}

/** How a raw connection ended. */
export interface SocketEnd {
  /** Everything the server sent. */
  received: string;
  /** `closed`: the server ended it cleanly (FIN); `reset`: ECONNRESET or EPIPE; `error`: another socket error. */
  how: "closed" | "reset" | "error";
  error?: string;
}

/** A raw TCP connection to the server; `ended` settles once the connection is gone, however it went. */
export class RawSocket {
  readonly socket: Socket;
  readonly connected: Promise<void>;
  readonly ended: Promise<SocketEnd>;
  received = "";
  private readonly waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];

  constructor(port: number) {
    this.socket = connect(port, "127.0.0.1");
    this.connected = new Promise((resolve, reject) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("error", reject);
    });
    this.connected.catch(() => {});
    let failure: NodeJS.ErrnoException | undefined;
    this.socket.on("error", (error: NodeJS.ErrnoException) => (failure = error));
    this.socket.on("data", (data: Buffer) => {
      this.received += data.toString("latin1");
      for (const w of this.waiters.filter((w) => w.pattern.test(this.received))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    });
    this.ended = new Promise((resolve) =>
      this.socket.once("close", () => {
        const code = failure?.code;
        const how = failure === undefined ? "closed" : code === "ECONNRESET" || code === "EPIPE" ? "reset" : "error";
        resolve({ received: this.received, how, ...(failure === undefined ? {} : { error: `${code ?? ""} ${failure.message}` }) });
      }),
    );
  }

  /** Writes bytes now (without ending the connection). */
  async send(data: string | Buffer): Promise<void> {
    await this.connected;
    await new Promise<void>((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** Resolves once what the server sent so far matches `pattern`. */
  receivedMatches(pattern: RegExp): Promise<void> {
    if (pattern.test(this.received)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pattern, resolve }));
  }

  /** Ends the connection abruptly (as a client that crashed). */
  destroy(): void {
    this.socket.destroy();
  }
}

/** The request head of a POST to `target` with these headers and a Content-Length of `length`. */
export function postHead(target: string, headers: Record<string, string>, length: number): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${target} HTTP/1.1\r\n${lines.join("")}content-length: ${length}\r\n\r\n`;
}
