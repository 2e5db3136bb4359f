/**
 * The lines of a stdio child's stdout, read in linear time and bounded (issue 30 §1), in place of the SDK's
 * ReadBuffer — which copies everything buffered into a new buffer at every chunk and searches all of it again for
 * `\n` (quadratic on one long line), and which, past its fixed 10 MiB, drops what it holds and goes on mid-line, so
 * the tail of an oversized line is read as if it were a message of its own. Here only the new bytes are searched for
 * the line's end; a line is held until it passes the answer limit, then its bytes are skipped up to its end — still
 * scanned, so its id says which request it answered — and it is refused; a line nested too deep is refused unparsed.
 */
import type { McpHostError } from "../../errors.js";
import { type AnswerLimits, tooDeep, tooLarge } from "./answer-limits.js";
import { JsonScan } from "./json-scan.js";

const NEWLINE = 0x0a;

/** A line refused, and what its scan said of it. */
export interface RefusedLine {
  error: McpHostError;
  /** Its top-level id, when one was read. */
  id?: string | number;
  /** True when it answers a request (`result` or `error`) and asks nothing (`method`). */
  answers: boolean;
}

export interface LineReaderOptions {
  limits: AnswerLimits;
  /** A complete line within the limits (never empty), as text. */
  line(text: string): void;
  /** A line refused; for one too large, as soon as it is known to answer a request by its id, else at its end. */
  refused(refusal: RefusedLine): void;
}

/**
 * @example
 * const reader = new LineReader({ limits, line: (text) => route(JSON.parse(text)), refused: (r) => fail(r) });
 * child.stdout.on("data", (chunk) => reader.push(chunk));
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private over = false;
  private told = false;
  private scan = new JsonScan();

  constructor(private readonly options: LineReaderOptions) {}

  push(chunk: Buffer): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const end = newline < 0 ? chunk.length : newline;
      if (end > from) this.take(chunk.subarray(from, end));
      if (newline < 0) return;
      this.finish();
      from = newline + 1;
    }
  }

  /** Forgets the line in progress (the child is gone). */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.over = false;
    this.told = false;
    this.scan = new JsonScan();
  }

  private take(piece: Buffer): void {
    this.scan.feed(piece);
    this.size += piece.length;
    if (!this.over && this.size > this.options.limits.maxAnswerBytes) {
      this.over = true;
      this.parts = [];
    }
    if (!this.over) this.parts.push(piece);
    else if (!this.told && this.scan.id !== undefined && this.scan.answers && !this.scan.asks) {
      // Known to answer a request: that request fails now, not once the rest of the line has gone by.
      this.told = true;
      this.options.refused(this.refusal(tooLarge(this.options.limits)));
    }
  }

  private finish(): void {
    const { over, told, parts, scan } = this;
    this.clear();
    if (over) {
      if (!told) this.options.refused(this.refusalOf(scan, tooLarge(this.options.limits)));
      return;
    }
    if (scan.deepest > this.options.limits.maxJsonDepth) {
      this.options.refused(this.refusalOf(scan, tooDeep(this.options.limits)));
      return;
    }
    if (parts.length === 0) return;
    this.options.line((parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString("utf8"));
  }

  private refusal(error: McpHostError): RefusedLine {
    return this.refusalOf(this.scan, error);
  }

  private refusalOf(scan: JsonScan, error: McpHostError): RefusedLine {
    return { error, answers: scan.answers && !scan.asks, ...(scan.id === undefined ? {} : { id: scan.id }) };
  }
}
