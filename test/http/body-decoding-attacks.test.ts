// One decoding of the body (issue 17 class 4, docs/design.md §16): the nesting check and the JSON parser must read
// the same characters. When they decoded differently (the scan with WHATWG's "utf-16", which is little-endian, the
// parser with a BOM-aware decoder), a big-endian UTF-16 body thousands of levels deep passed the scan and
// overflowed the stack: a 500. JSON between systems is UTF-8 (RFC 8259 §8.1), so any other charset is refused
// with 415 before a byte is decoded; a UTF-8 BOM is ignored. The family: every charset label, byte-order mark and
// content coding a client can combine, each with a plain body and one nested far beyond the limit, in both eras —
// never a 5xx, never a deep body served, never an error line.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, raw, serveHost } from "../helpers/http-host.js";

const extensions: McpExtension[] = [
  { name: "a", toolsets: [{ name: "a" }], tools: [{ name: "echo", handler: (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }) }] },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const ERAS = {
  legacy: { headers: { ...LEGACY_POST_HEADERS }, plain: () => legacyInitialize() },
  modern: {
    headers: { ...LEGACY_POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
    plain: () => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { value: "@" }, _meta: MODERN_META } }),
  },
} as const;

/** `era`'s request with 20 000 levels of brackets as its argument (written as text: JSON.stringify would overflow). */
function deep(era: keyof typeof ERAS): string {
  const levels = 20_000;
  const base =
    era === "legacy"
      ? JSON.stringify({ ...JSON.parse(legacyInitialize()), params: { ...JSON.parse(legacyInitialize()).params, v: "@" } })
      : ERAS.modern.plain();
  return base.replace('"@"', `${"[".repeat(levels)}${"]".repeat(levels)}`);
}

const BOMS = { none: Buffer.alloc(0), utf8: Buffer.from([0xef, 0xbb, 0xbf]), utf16be: Buffer.from([0xfe, 0xff]), utf16le: Buffer.from([0xff, 0xfe]) };

/** The text in `encoding`, after `bom`. */
function encode(text: string, encoding: "utf8" | "utf16le" | "utf16be", bom: Buffer): Buffer {
  if (encoding === "utf16be") return Buffer.concat([bom, Buffer.from(text, "utf16le").swap16()]);
  return Buffer.concat([bom, Buffer.from(text, encoding)]);
}

interface Variant {
  what: string;
  charset: string | undefined;
  encoding: "utf8" | "utf16le" | "utf16be";
  bom: keyof typeof BOMS;
  gzip: boolean;
}

const CHARSET_LABELS: Array<[string | undefined, Variant["encoding"]]> = [
  [undefined, "utf8"],
  ["utf-8", "utf8"],
  ["UTF-8", "utf8"],
  ["utf8", "utf8"],
  ['"utf-8"', "utf8"],
  ["utf-16", "utf16be"],
  ["utf-16", "utf16le"],
  ["UTF-16BE", "utf16be"],
  ["utf-16le", "utf16le"],
  ["ucs-2", "utf16le"],
  ["utf-32", "utf8"],
  ["utf-7", "utf8"],
  ["unicode-1-1-utf-8", "utf8"],
  ["latin1", "utf8"],
  ["x-unknown", "utf8"],
  [undefined, "utf16be"],
];

function variants(): Variant[] {
  const out: Variant[] = [];
  for (const [charset, encoding] of CHARSET_LABELS) {
    for (const bom of Object.keys(BOMS) as Array<keyof typeof BOMS>) {
      for (const gzip of [false, true])
        out.push({ what: `charset=${charset ?? "(none)"} as ${encoding}, BOM ${bom}, ${gzip ? "gzip" : "identity"}`, charset, encoding, bom, gzip });
    }
  }
  return out;
}

/** No charset named, or UTF-8 by its registered name (any case, quoted or not). */
function labelIsUtf8(variant: Variant): boolean {
  const label = variant.charset?.replace(/"/g, "").toLowerCase();
  return label === undefined || label === "utf-8";
}

/** UTF-8 bytes labelled as UTF-8 (or not labelled), with no BOM or a UTF-8 one: the only bodies served. */
function isUtf8(variant: Variant): boolean {
  return labelIsUtf8(variant) && variant.encoding === "utf8" && (variant.bom === "none" || variant.bom === "utf8");
}

for (const era of ["legacy", "modern"] as const) {
  describe(`one decoding of the body, ${era} era`, { timeout: 120_000 }, () => {
    it("never answers 5xx for any charset, BOM and coding, serves only UTF-8, and refuses a deep body in every decoding", async () => {
      const { url, records } = await serveHost(cleanup, extensions);
      const wrong: string[] = [];
      for (const variant of variants()) {
        for (const kind of ["plain", "deep"] as const) {
          const text = kind === "plain" ? ERAS[era].plain() : deep(era);
          let body = encode(text, variant.encoding, BOMS[variant.bom]);
          if (variant.gzip) body = gzipSync(body);
          const headers: Record<string, string> = {
            ...ERAS[era].headers,
            "content-type": variant.charset === undefined ? "application/json" : `application/json; charset=${variant.charset}`,
            ...(variant.gzip ? { "content-encoding": "gzip" } : {}),
          };
          const answer = await raw({ url, method: "POST", headers, body });
          const label = `${kind} ${variant.what}: ${answer.status} ${answer.text.slice(0, 160)}`;
          if (answer.status >= 500) wrong.push(`5xx — ${label}`);
          else if (kind === "deep" && answer.status < 400) wrong.push(`deep body served — ${label}`);
          else if (kind === "plain" && isUtf8(variant) && answer.status !== 200) wrong.push(`UTF-8 refused — ${label}`);
          else if (!labelIsUtf8(variant) && answer.status !== 415) wrong.push(`non-UTF-8 charset not refused with 415 — ${label}`);
          else if (!isUtf8(variant) && answer.status < 400) wrong.push(`a body that is not UTF-8 served — ${label}`);
        }
      }
      assert.deepEqual(wrong, []);
      assert.deepEqual(
        records.filter((r) => r.level === "error").map((r) => r.message),
        [],
      );
    });
  });
}
