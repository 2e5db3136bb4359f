/**
 * Secret redaction for what a server or its transport says: error details, JSON-RPC messages, stderr lines. A
 * server's URL (whose host, path or query may say more than the server's name should), its header values and its
 * declared env values are secrets. Only that foreign text is redacted, never the registry's own framing around it:
 * a server named like one of its own env values (`git` with `TOOL=git`) is still named in every message.
 */
import { longestFirst } from "./compare.js";
import type { ServerSpecification } from "./types.js";

const MIN_SECRET_LENGTH = 4;

/** Removes a server's secrets (and anything URL-shaped) from a text that came from the server or its transport. */
export type Redactor = (foreign: string) => string;

/**
 * A function that removes the given secrets (and anything URL-shaped) from a text.
 * @example
 * const redact = createRedactor(["https://h.example/mcp/sk-123", "Bearer abc123"]);
 * redact("POST https://h.example/mcp/sk-123 failed") // "POST <url> failed"
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const parts = [...new Set(secrets.flatMap(expandSecret))].filter((s) => s.length >= MIN_SECRET_LENGTH).sort(longestFirst);
  return (text: string) => {
    let out = text;
    for (const secret of parts) out = out.split(secret).join("<redacted>");
    return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]+/gi, "<url>");
  };
}

/**
 * The redactor of one server: its URL and header values (http), or its declared env values (stdio).
 * @example
 * redactorOf(ServerSpec.stdio("git", "uvx", [], { env: { TOKEN: "sk-123456" } }))("bad token sk-123456") // "bad token <redacted>"
 */
export function redactorOf(spec: ServerSpecification): Redactor {
  if (spec.transport === "http") return createRedactor([spec.url, ...Object.values(spec.headers ?? {})]);
  if (spec.transport === "stdio") return createRedactor(Object.values(spec.env ?? {}));
  return createRedactor([]);
}

/** A URL secret also hides its pieces: without the trailing slash, its path, its query. */
function expandSecret(secret: string): string[] {
  const out = [secret];
  try {
    const url = new URL(secret);
    out.push(url.href, url.href.replace(/\/$/, ""), `${url.host}${url.pathname}`, url.host, url.hostname);
    if (url.pathname.length > 1) out.push(url.pathname, url.pathname.replace(/\/$/, ""));
    if (url.search.length > 1) out.push(url.search.slice(1));
    if (url.username) out.push(url.username);
    if (url.password) out.push(url.password);
  } catch {
    // not a URL: only the literal value is a secret
  }
  return out;
}
