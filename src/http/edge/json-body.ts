/**
 * Reading an MCP request's JSON body (docs/design.md §8, §16), once, with the edge's limits: the media type (JSON), the
 * content codings served (`gzip`, `deflate`, `br`), the size (counted as decoded, so a small gzip bomb is no way
 * round it), UTF-8 only (RFC 8259 §8.1), and a nesting no deeper than `http.maxJsonDepth` — checked on the raw bytes
 * before they are parsed, so nothing ever re-serialises (and overflows the stack on) a body nested thousands of
 * levels deep. The scan and the parser read the same characters: with any charset but UTF-8 they could decode
 * differently (WHATWG's "utf-16" is little-endian, a decoder that honours a BOM is not), so every other charset is
 * refused before a byte is decoded; UTF-8's multi-byte sequences never hold an ASCII byte, so scanning its bytes is
 * scanning its characters, and a UTF-8 BOM (which holds no bracket) is dropped. Everything a client can get wrong
 * here is a 4xx with a JSON-RPC error body, answered by the caller from the refusal this returns.
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** The content codings a request body may arrive in; `identity` is no coding. */
export const SERVED_CONTENT_CODINGS = ["gzip", "deflate", "br"] as const;

const ACCEPT_ENCODING = { "accept-encoding": SERVED_CONTENT_CODINGS.join(", ") };

export interface BodyLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
}

/** A body the client got wrong: the answer it gets. */
export interface BodyRefusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
  /** The client went away mid-upload: nobody is left to answer. */
  gone?: boolean;
}

/** What reading gave: the parsed value (undefined for an empty body), or why it was refused. */
export type BodyOutcome = { ok: true; value: unknown } | { ok: false; refusal: BodyRefusal };

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

/** The charset a Content-Type names (lower case, unquoted), or undefined when it names none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const match = /;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  if (match === null) return undefined;
  return (match[2] ?? match[1] ?? "").trim().toLowerCase();
}

/**
 * True for a JSON media type: `application/json` or any `application/<x>+json`, parameters aside.
 * @example
 * isJsonMediaType("application/json; charset=utf-8") // true
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(";");
  const essence = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return essence === "application/json" || (essence.startsWith("application/") && essence.endsWith("+json") && !essence.includes(" "));
}

function refusal(status: number, message: string, headers?: Record<string, string>): BodyOutcome {
  return { ok: false, refusal: { status, code: status === 413 ? -32600 : -32700, message, ...(headers ? { headers } : {}) } };
}

function contentCoding(req: IncomingMessage): string {
  return String(req.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
}

/** The stream the body's bytes come out of: the request itself, or a decoder of its coding. */
function decodedStream(req: IncomingMessage, coding: string): Readable | undefined {
  switch (coding) {
    case "identity":
      return req;
    case "gzip":
      return req.pipe(createGunzip());
    case "deflate":
      return req.pipe(createInflate());
    case "br":
      return req.pipe(createBrotliDecompress());
    default:
      return undefined;
  }
}

const TOO_LARGE = Symbol("too large");

/** Reads a stream to its end, stopping once more than `max` bytes came; TOO_LARGE then. */
function readAll(stream: Readable, max: number): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > max) {
        stream.off("data", onData);
        stream.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    stream.on("data", onData);
    stream.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)));
    stream.once("error", reject);
  });
}

/**
 * Reads and parses the body of `req` under `limits`. Never throws for what the client sent.
 * @example
 * const read = await readJsonBody(req, { maxBodyBytes: 4 << 20, maxJsonDepth: 64 });
 * if (!read.ok) return answer(read.refusal);
 */
export async function readJsonBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyOutcome> {
  const charset = charsetOf(req.headers["content-type"]);
  if (charset !== undefined && charset !== "utf-8") return refusal(415, `Unsupported Media Type: the charset "${charset}" is not served; send JSON in UTF-8.`);
  const coding = contentCoding(req);
  const tooLarge = `Request body too large: the limit is ${limits.maxBodyBytes} bytes (http.maxBodyBytes).`;
  const declared = Number(req.headers["content-length"]);
  // Answered before a byte is read; the rest of the body is read and dropped afterwards (lingering-close.ts).
  if (coding === "identity" && Number.isFinite(declared) && declared > limits.maxBodyBytes) return refusal(413, tooLarge);
  const stream = decodedStream(req, coding);
  if (stream === undefined) {
    return refusal(
      415,
      `Unsupported Media Type: the Content-Encoding "${coding}" is not served; send the body as it is, or in ${SERVED_CONTENT_CODINGS.join(", ")}.`,
      ACCEPT_ENCODING,
    );
  }
  let bytes: Buffer | typeof TOO_LARGE;
  try {
    bytes = await readAll(stream, limits.maxBodyBytes);
  } catch (error) {
    if (req.readableAborted || (error as { code?: unknown }).code === "ECONNRESET")
      return { ok: false, refusal: { status: 400, code: -32700, message: "the client went away", gone: true } };
    return refusal(415, `Unsupported Media Type: the body could not be decoded as "${coding}" (its Content-Encoding).`, ACCEPT_ENCODING);
  }
  if (bytes === TOO_LARGE) {
    // The decoder has done its part; what is left of the body is the lingering close's to drop.
    if (stream !== req) {
      req.unpipe(stream as unknown as NodeJS.WritableStream);
      stream.destroy();
    }
    return refusal(413, tooLarge);
  }
  if (req.readableAborted) return { ok: false, refusal: { status: 400, code: -32700, message: "the client went away", gone: true } };
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = start === 0 ? bytes : bytes.subarray(start);
  if (body.length === 0) return { ok: true, value: undefined };
  if (jsonDepth(body, limits.maxJsonDepth) > limits.maxJsonDepth)
    return refusal(400, `Parse error: the JSON body nests deeper than ${limits.maxJsonDepth} levels (http.maxJsonDepth).`);
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) };
  } catch {
    return refusal(400, "Parse error: the request body is not valid JSON.");
  }
}
