/**
 * Reading an MCP request's JSON body (docs/design.md §8, §16): size-limited, decoded from the content codings the
 * server serves (`gzip`, `deflate`, `br`), in UTF-8 only (RFC 8259 §8.1), and no deeper than `http.maxJsonDepth` —
 * checked on the raw bytes before they are parsed, so nothing ever re-serialises (and overflows the stack on) a body
 * nested thousands of levels deep. The scan and the parser must read the same characters: with any charset but
 * UTF-8 they could decode differently (WHATWG's "utf-16" is little-endian, the parser's decoder honours a big-endian
 * BOM) and a deep body would pass the scan, so every other charset is refused before a byte is decoded. UTF-8's
 * multi-byte sequences never hold an ASCII byte, so scanning its bytes is scanning its characters; a UTF-8 BOM
 * holds no bracket either, and the parser drops it. Everything a client can get wrong here is a 4xx with a JSON-RPC
 * error body; only a fault of the server itself goes on to the final error handler.
 */
import type { IncomingMessage } from "node:http";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { sendJsonRpcError } from "./jsonrpc-response.js";

/** The content codings a request body may arrive in (what body-parser decodes); `identity` is no coding. */
export const SERVED_CONTENT_CODINGS = ["gzip", "deflate", "br"] as const;

const ACCEPT_ENCODING = { "accept-encoding": SERVED_CONTENT_CODINGS.join(", ") };

class TooDeepError extends Error {
  readonly status = 400;
  readonly type = "entity.too.deep";
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of arrays and objects in a JSON text (a top-level object is 1), stopping early once past
 * `limit`. Works on UTF-8 bytes (whose multi-byte sequences never hold an ASCII byte) or on a string's code units.
 * @example
 * jsonDepth(Buffer.from('{"a":[1]}'), 64) // 2
 */
export function jsonDepth(text: Uint8Array | string, limit: number): number {
  const at = typeof text === "string" ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

class CharsetError extends Error {
  readonly status = 415;
  readonly type = "charset.unsupported";
  constructor(readonly charset: string) {
    super(`unsupported charset "${charset}"`);
  }
}

/** The charset a Content-Type names (lower case, unquoted), or undefined when it names none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const match = /;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  if (match === null) return undefined;
  return (match[2] ?? match[1] ?? "").trim().toLowerCase();
}

/** Refuses a body in any charset but UTF-8 before a byte of it is read (the scan and the parser then agree). */
const utf8Only: RequestHandler = (req, _res, next) => {
  const charset = charsetOf(req.headers["content-type"]);
  next(charset === undefined || charset === "utf-8" ? undefined : new CharsetError(charset));
};

function depthCheck(maxDepth: number) {
  return (_req: IncomingMessage, _res: unknown, buf: Buffer): void => {
    if (jsonDepth(buf, maxDepth) > maxDepth) throw new TooDeepError(`the JSON body nests deeper than ${maxDepth} levels`);
  };
}

interface BodyError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  code?: unknown;
  charset?: string;
  encoding?: string;
}

function contentCoding(req: IncomingMessage): string {
  return String(req.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
}

/** True when the error came from decoding the body's content coding (a body that is not what its coding says). */
function isDecodeFailure(req: IncomingMessage, error: BodyError): boolean {
  if (contentCoding(req) === "identity") return false;
  return typeof error.code === "string" && /^(Z_|ERR_ZLIB|ERR_BROTLI|ERR__)/.test(error.code);
}

/** Answers what body-parser (or the depth check) refused; returns false for what is not the client's doing. */
function answerBodyError(error: BodyError, req: IncomingMessage, res: Response, limits: { maxBodyBytes: number; maxJsonDepth: number }): boolean {
  switch (error.type) {
    case "entity.too.large":
      sendJsonRpcError(res, 413, -32600, `Request body too large: the limit is ${limits.maxBodyBytes} bytes (http.maxBodyBytes).`);
      return true;
    case "entity.too.deep":
      sendJsonRpcError(res, 400, -32700, `Parse error: the JSON body nests deeper than ${limits.maxJsonDepth} levels (http.maxJsonDepth).`);
      return true;
    case "entity.parse.failed":
      sendJsonRpcError(res, 400, -32700, "Parse error: the request body is not valid JSON.");
      return true;
    case "encoding.unsupported":
      sendJsonRpcError(
        res,
        415,
        -32700,
        `Unsupported Media Type: the Content-Encoding "${contentCoding(req)}" is not served; send the body as it is, or in ${SERVED_CONTENT_CODINGS.join(", ")}.`,
        ACCEPT_ENCODING,
      );
      return true;
    case "charset.unsupported":
      sendJsonRpcError(res, 415, -32700, `Unsupported Media Type: the charset "${error.charset ?? ""}" is not served; send JSON in UTF-8.`);
      return true;
  }
  if (isDecodeFailure(req, error)) {
    sendJsonRpcError(
      res,
      415,
      -32700,
      `Unsupported Media Type: the body could not be decoded as "${contentCoding(req)}" (its Content-Encoding).`,
      ACCEPT_ENCODING,
    );
    return true;
  }
  return false;
}

/**
 * The JSON body parser of the MCP path and its error answers, in order.
 * @example
 * app.post("/mcp", ...jsonBody({ maxBodyBytes: 4 << 20, maxJsonDepth: 64, types: ["application/json"] }), handler);
 */
export function jsonBody(options: { maxBodyBytes: number; maxJsonDepth: number; types: string[] }): RequestHandler[] {
  const parse = express.json({ limit: options.maxBodyBytes, type: options.types, verify: depthCheck(options.maxJsonDepth) });
  const errors = (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (typeof error === "object" && error !== null && answerBodyError(error as BodyError, req, res, options)) return;
    if (error instanceof SyntaxError) {
      sendJsonRpcError(res, 400, -32700, "Parse error: the request body is not valid JSON.");
      return;
    }
    next(error);
  };
  return [utf8Only, parse, errors as unknown as RequestHandler];
}
