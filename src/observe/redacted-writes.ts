/**
 * The last line of defence for what a deployment writes to stderr without its logger: the SDK's own `console.warn`
 * lines (OAuth errors quote what an endpoint said), an extension's `console.error`, Node's warnings, the command's
 * final error. Every write to the stream passes through the deployment's SecretRedactor; the logger's own lines are
 * redacted already and pass through unchanged.
 */
import type { SecretRedactor } from "../secret-redactor.js";

/** A stream whose `write` can be wrapped (process.stderr). */
export interface WritableText {
  write(chunk: unknown, ...rest: unknown[]): boolean;
}

const guarded = new WeakMap<WritableText, Set<SecretRedactor>>();

function redactChunk(chunk: unknown, redactors: ReadonlySet<SecretRedactor>): unknown {
  const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : undefined;
  if (text === undefined) return chunk;
  let out = text;
  for (const redactor of redactors) out = redactor.redact(out);
  // Bytes with no secret in them are written as they came (a chunk may end inside a multi-byte character).
  return out === text ? chunk : out;
}

/**
 * Makes every later write to `stream` go through `redactor` (and any redactor given before); returns the undo.
 * @example
 * const release = redactWrites(process.stderr, redactor);
 * console.warn(`token ${token}`); // written as "token <redacted>"
 */
export function redactWrites(stream: WritableText, redactor: SecretRedactor): () => void {
  let redactors = guarded.get(stream);
  if (redactors === undefined) {
    const own = new Set<SecretRedactor>();
    redactors = own;
    guarded.set(stream, own);
    const write = stream.write.bind(stream);
    stream.write = (chunk: unknown, ...rest: unknown[]) => write(redactChunk(chunk, own), ...rest);
  }
  redactors.add(redactor);
  const set = redactors;
  return () => {
    set.delete(redactor);
  };
}
