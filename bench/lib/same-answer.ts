/**
 * A cheap exact check for big answers that never change (a 1000-tool `tools/list` is ~400 KB): once one answer
 * has passed the full check, a later answer is right when the JSON-RPC message carrying its id — the whole JSON
 * body, or that message's `data:` line in an SSE body — equals the verified one byte for byte except for the id.
 * (SSE event ids and priming events around it may differ; the full check ignores them too.) Anything else falls
 * back to the full check, so nothing wrong is let through; parsing 400 KB per answer is what is skipped, so that
 * the load generator does not become the bottleneck.
 */
import type { Answer } from "./protocol.js";

interface Reference {
  status: number;
  sse: boolean;
  /** The message's bytes before and after `"id":<id>`. */
  prefix: Buffer;
  suffix: Buffer;
}

const NEWLINE = 0x0a;

/** Where the message holding `token` starts and ends, and where the token is; undefined if it is not there once. */
function span(body: Buffer, token: Buffer, sse: boolean): { start: number; at: number; end: number } | undefined {
  const at = body.indexOf(token);
  if (at < 0) return undefined;
  const next = body[at + token.length];
  if (next !== undefined && next >= 0x30 && next <= 0x39) return undefined; // the start of a longer number
  if (!sse) return { start: 0, at, end: body.length };
  const start = body.lastIndexOf(NEWLINE, at) + 1;
  const newline = body.indexOf(NEWLINE, at);
  return { start, at, end: newline < 0 ? body.length : newline };
}

export class SameAnswer {
  private reference: Reference | undefined;
  /** How many answers the byte comparison accepted, and how many took the full check. */
  readonly counts = { same: 0, full: 0 };

  /** Undefined when right; `fullCheck` decides whenever the bytes do not match the verified answer's. */
  check(answer: Answer, id: number, fullCheck: () => string | undefined): string | undefined {
    const token = Buffer.from(`"id":${id}`);
    const sse = answer.contentType.includes("text/event-stream");
    const ref = this.reference;
    if (ref && answer.status === ref.status && sse === ref.sse) {
      const where = span(answer.body, token, sse);
      if (
        where &&
        where.at - where.start === ref.prefix.length &&
        where.end - where.at - token.length === ref.suffix.length &&
        answer.body.subarray(where.start, where.at).equals(ref.prefix) &&
        answer.body.subarray(where.at + token.length, where.end).equals(ref.suffix)
      ) {
        this.counts.same += 1;
        return undefined;
      }
    }
    this.counts.full += 1;
    const problem = fullCheck();
    if (problem === undefined) this.learn(answer, token, sse);
    return problem;
  }

  private learn(answer: Answer, token: Buffer, sse: boolean): void {
    const where = span(answer.body, token, sse);
    // Only an id that appears once can be masked safely.
    if (!where || answer.body.indexOf(token, where.at + 1) >= 0) return;
    this.reference = {
      status: answer.status,
      sse,
      prefix: Buffer.from(answer.body.subarray(where.start, where.at)),
      suffix: Buffer.from(answer.body.subarray(where.at + token.length, where.end)),
    };
  }
}
