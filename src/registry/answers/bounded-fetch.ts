/**
 * The fetch an SDK client's Streamable HTTP transport is given (issue 30 §1): the same requests, every answer's body
 * counted as it arrives. A JSON answer is read here up to the answer limit and scanned for its nesting, then handed
 * on whole — or refused: the fetch rejects with the refusal, and the SDK fails the request with it. An event stream
 * goes through the registry's bounded SSE reader and is written again event by event; an event too large ends the
 * stream (stopping the upstream request) with a JSON-RPC error answering the request that opened it, an answer
 * nested too deep is replaced by one, and so is the answer a stream ended without — an SDK request waits for an
 * answer on its stream, so only an answer settles it. An answer to another request on a request's stream is ignored,
 * as the HTTP forwarder ignores it. Any other body (an error page, a redirect) is counted and cut off past the limit.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import type { McpHostError } from "../../errors.js";
import { type AnswerLimits, noAnswer, registryAnswer, tooDeep, tooLarge } from "./answer-limits.js";
import { JsonScan } from "./json-scan.js";
import { type EventSourceMessage, sseEvents } from "./sse-events.js";

/** A content type's media type, lower case, without parameters. */
function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The id of the JSON-RPC request a POST carried (read only when a refusal must answer it). */
function requestIdOf(init: RequestInit | undefined): string | number | undefined {
  if (typeof init?.body !== "string") return undefined;
  try {
    const message = JSON.parse(init.body) as { id?: unknown; method?: unknown };
    return typeof message.method === "string" && (typeof message.id === "string" || typeof message.id === "number") ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** The same answer with another body. */
function rebuilt(response: Response, body: ReadableStream<Uint8Array> | Uint8Array): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A JSON body read whole, within the limits; throws the refusal otherwise. */
async function jsonBody(body: ReadableStream<Uint8Array>, declared: number, limits: AnswerLimits): Promise<Uint8Array> {
  if (declared > limits.maxAnswerBytes) {
    await body.cancel().catch(() => undefined);
    throw tooLarge(limits);
  }
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limits.maxAnswerBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limits);
    }
    parts.push(value);
  }
  const bytes = Buffer.concat(parts);
  const scan = new JsonScan();
  scan.feed(bytes);
  if (scan.deepest > limits.maxJsonDepth) throw tooDeep(limits);
  return bytes;
}

/** An event as the SSE wire carries it. */
function serialized(event: EventSourceMessage): string {
  let text = event.id === undefined ? "" : `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  for (const line of event.data.split("\n")) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * An event stream read through the bounded reader and written again; `requestId` is the request that opened it. A
 * stream that ends with no answer to that request and no event id to resume it by gets the registry's answer saying
 * so — the SDK would otherwise wait for its timeout.
 */
function boundedEvents(options: BoundedFetchOptions, requestId: () => string | number | undefined): TransformStream<Uint8Array, Uint8Array> {
  const { limits } = options;
  const encoder = new TextEncoder();
  let push: (chunk: Uint8Array) => void = () => undefined;
  let end: () => void = () => undefined;
  /** Whether an answer (or an event id to resume by) came: then the stream's end is the SDK's business. */
  let settled = false;
  return new TransformStream({
    start(controller) {
      const answer = (id: string | number | undefined, failure: McpHostError) => {
        if (id === undefined) return;
        settled = true;
        controller.enqueue(encoder.encode(serialized({ event: "message", data: JSON.stringify(registryAnswer(id, failure)), id: undefined })));
      };
      const sse = sseEvents({
        maxEventBytes: limits.maxAnswerBytes,
        event: (event) => {
          if (event.id) settled = true;
          if (event.data !== "" && (event.event === undefined || event.event === "message")) {
            const scan = new JsonScan();
            scan.feed(event.data);
            if (scan.deepest > limits.maxJsonDepth) {
              // The request that opened the stream fails; anything else that deep (a question, another's answer) is dropped.
              if (scan.answers && !scan.asks && scan.id === requestId()) answer(scan.id, tooDeep(limits));
              return;
            }
            if (scan.answers && !scan.asks) {
              // Bound to its own request's stream, as a forwarded answer is: another request's answer here is ignored.
              const own = requestId();
              if (own !== undefined && scan.id !== own) return options.ignored("an answer to another request");
              settled = true;
            }
          }
          controller.enqueue(encoder.encode(serialized(event)));
        },
        tooLarge: () => {
          answer(requestId(), tooLarge(limits));
          controller.terminate(); // the source is cancelled: the upstream request stops
        },
        retry: (ms) => controller.enqueue(encoder.encode(`retry: ${ms}\n\n`)),
      });
      push = sse.push;
      end = () => {
        sse.end();
        if (!settled) answer(requestId(), noAnswer());
      };
    },
    transform: (chunk) => push(chunk),
    flush: () => end(),
  });
}

/** Any other body, cut off (the stream errors with the refusal) past the limit. */
function countedBytes(limits: AnswerLimits): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limits.maxAnswerBytes) controller.error(tooLarge(limits));
      else controller.enqueue(chunk);
    },
  });
}

export interface BoundedFetchOptions {
  limits: AnswerLimits;
  /** Something a stream carried was not for its request, and was ignored (for a debug line). */
  ignored(what: string): void;
}

/**
 * `base` with every answer's body read within the limits.
 * @example
 * new StreamableHTTPClientTransport(url, { fetch: boundedFetch(spec.fetch ?? fetch, { limits, ignored: (what) => log.debug(what) }) })
 */
export function boundedFetch(base: FetchLike, options: BoundedFetchOptions): FetchLike {
  const { limits } = options;
  return async (url, init) => {
    const response = await base(url, init);
    const body = response.body;
    if (body === null) return response;
    const type = mediaTypeOf(response.headers.get("content-type"));
    if (response.ok && type === "text/event-stream") {
      let id: { value: string | number | undefined } | undefined;
      const requestId = () => {
        id ??= { value: requestIdOf(init) }; // read once, and only when needed
        return id.value;
      };
      return rebuilt(response, body.pipeThrough(boundedEvents(options, requestId)));
    }
    if (response.ok && type === "application/json") {
      const declared = Number(response.headers.get("content-length") ?? 0);
      return rebuilt(response, await jsonBody(body, Number.isFinite(declared) ? declared : 0, limits));
    }
    return rebuilt(response, body.pipeThrough(countedBytes(limits)));
  };
}
