/**
 * A skill file as it goes on the wire (docs/skills.md): its MIME type (by extension; a `SKILL.md` is markdown), text
 * when its bytes are UTF-8 that decodes without loss (the SEP sends those as `text`), else base64, and the SHA-256
 * digest a client checks it by. The SDK keeps its own MIME table and byte helpers inside the package, so the host has
 * these few lines of its own.
 */
import { createHash } from "node:crypto";
import type { SkillFileContent } from "../extension/types.js";

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  sh: "application/x-sh",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/typescript",
  html: "text/html",
  css: "text/css",
  csv: "text/csv",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
};

/**
 * The MIME type of a file by its name's extension; `application/octet-stream` when unknown.
 * @example
 * mimeTypeOf("references/GUIDE.md") // "text/markdown"
 */
export function mimeTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  const extension = dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MIME_TYPES, extension) ? MIME_TYPES[extension]! : "application/octet-stream";
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The wire form of a file's bytes: `text` when they are UTF-8 (decoded without loss), else `blob` (base64).
 * @example
 * contentOf(new TextEncoder().encode("# Hello"), "text/markdown") // { text: "# Hello", mimeType: "text/markdown" }
 */
export function contentOf(bytes: Uint8Array, mimeType: string): SkillFileContent {
  try {
    return { text: decoder.decode(bytes), mimeType };
  } catch {
    return { blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"), mimeType };
  }
}

/** The bytes a wire content stands for (what its digest covers). */
export function bytesOf(content: SkillFileContent): Uint8Array {
  return "text" in content ? Buffer.from(content.text, "utf8") : Buffer.from(content.blob, "base64");
}

/**
 * `sha256:` and the lowercase hex SHA-256 of `bytes`, as a skill entry publishes it.
 * @example
 * digestOf(new Uint8Array()) // "sha256:e3b0c442…"
 */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}
