/**
 * A JSON text scanned once, in pieces as they arrive, for what the registry must know before — or instead of —
 * parsing it: how deep it nests (an answer nested past the limit is refused unparsed, as the HTTP edge refuses a
 * client's body), and, for a JSON-RPC message, its top-level `id` and whether it answers (`result`, `error`) or asks
 * (`method`) — so an answer refused for its size or depth still fails the request it answered. Linear in the text:
 * a string's contents are skipped with indexOf, not character by character. It never validates; the parser decides.
 * It reads UTF-8 bytes (a string is scanned as its bytes): a multi-byte sequence never holds an ASCII byte.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Longest top-level key kept (the longest looked for is "method"); longest id kept. */
const KEY_CHARS = 8;
const ID_CHARS = 256;

/** What comes next inside the top-level object: a key, its colon, its value, or (after a value) a comma. */
type Expect = "key" | "colon" | "value" | "after";

/**
 * @example
 * const scan = new JsonScan();
 * scan.feed(Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"a":[1]}}'));
 * scan.deepest // 3; scan.id // 7; scan.answers // true
 */
export class JsonScan {
  /** The deepest nesting so far (a top-level object is 1). */
  deepest = 0;
  /** The top-level `id`, once read (a string without escapes, or a number). */
  id: string | number | undefined;
  /** A top-level `result` or `error` was seen: the message answers a request. */
  answers = false;
  /** A top-level `method` was seen: the message is a request or a notification. */
  asks = false;

  private depth = 0;
  private inString = false;
  private escaped = false;
  private topObject = false;
  private expect: Expect = "after";
  /** The top-level key read last, "" when it is none looked for. */
  private key = "";
  /** What the string being read is to the scan: a top-level key, the id's value, or nothing it keeps. */
  private role: "key" | "id" | undefined;
  /** The characters of that key or id; undefined once given up (escaped, or too long). */
  private collected: string | undefined;
  /** The digits of a numeric id being read. */
  private number: string | undefined;

  /** Scans a piece of the text (a string is scanned as its UTF-8 bytes). */
  feed(text: string | Uint8Array): void {
    const bytes =
      typeof text === "string" ? Buffer.from(text, "utf8") : Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    const end = bytes.length;
    // The hot state in locals, written back at the end.
    let { depth, deepest, inString, escaped } = this;
    // The next quote and backslash, found once and reused until passed, so a string is skipped in linear time.
    let quote = -1;
    let backslash = -1;
    for (let i = 0; i < end; i++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        if (this.collected === undefined) {
          // Skip to the closing quote, escapes and all; a run of escapes (`\n\n…`) costs no search each.
          for (;;) {
            if (quote < i) quote = orEnd(bytes.indexOf(QUOTE, i), end);
            if (backslash < i) backslash = bytes[i] === BACKSLASH ? i : orEnd(bytes.indexOf(BACKSLASH, i), end);
            if (backslash >= quote) break;
            i = backslash + 2;
          }
          if (i > end) escaped = true; // the piece ended on a backslash: what it escapes comes next
          i = quote;
          if (i >= end) break;
        }
        const c = bytes[i]!;
        if (c === QUOTE) {
          inString = false;
          if (this.role !== undefined) this.endString();
        } else if (c === BACKSLASH) {
          escaped = true;
          this.collected = undefined; // an escaped key or id is none the scan looks for
        } else if (this.collected !== undefined) this.collect(c);
        continue;
      }
      const c = bytes[i]!;
      if (this.number !== undefined && !this.numberGoesOn(c)) continue;
      if (c === QUOTE) {
        inString = true;
        if (depth === 1 && this.topObject) this.startString();
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (depth > deepest) deepest = depth;
        if (depth === 1) {
          this.topObject = c === OPEN_BRACE;
          this.expect = "key";
        } else if (depth === 2) this.expect = "after";
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
      else if (depth === 1 && this.topObject) this.topLevel(c);
    }
    this.depth = depth;
    this.deepest = deepest;
    this.inString = inString;
    this.escaped = escaped;
  }

  /** A string begins inside the top-level object: a key, the id's value, or nothing the scan keeps. */
  private startString(): void {
    this.role = this.expect === "key" ? "key" : this.expect === "value" && this.key === "id" ? "id" : undefined;
    this.collected = this.role === undefined ? undefined : "";
  }

  private collect(c: number): void {
    const room = this.role === "key" ? KEY_CHARS : ID_CHARS;
    this.collected = this.collected !== undefined && this.collected.length < room ? this.collected + String.fromCharCode(c) : undefined;
  }

  /** A character after a numeric id's first: false when it went into the number (nothing more to do with it). */
  private numberGoesOn(c: number): boolean {
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65) {
      if (this.number !== undefined && this.number.length < ID_CHARS) this.number += String.fromCharCode(c);
      return false;
    }
    const n = Number(this.number);
    if (Number.isFinite(n)) this.id = n;
    this.number = undefined;
    this.expect = "after";
    return true;
  }

  /** A character between the top-level object's keys and values. */
  private topLevel(c: number): void {
    if (c === COMMA) this.expect = "key";
    else if (c === COLON && this.expect === "colon") {
      this.expect = "value";
      if (this.key === "result" || this.key === "error") this.answers = true;
      else if (this.key === "method") this.asks = true;
    } else if (this.expect === "value" && this.key === "id" && ((c >= 0x30 && c <= 0x39) || c === 0x2d)) this.number = String.fromCharCode(c);
  }

  private endString(): void {
    this.inString = false;
    if (this.role === "key") {
      this.key = this.collected ?? "";
      this.expect = "colon";
    } else if (this.role === "id") {
      if (this.collected !== undefined) this.id = this.collected;
      this.expect = "after";
    }
    this.role = undefined;
    this.collected = undefined;
  }
}

/** An indexOf result, with "none" as `end`. */
function orEnd(index: number, end: number): number {
  return index < 0 ? end : index;
}
