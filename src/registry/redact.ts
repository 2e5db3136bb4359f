/**
 * Secret redaction for what a server or its transport says: error details, JSON-RPC messages, stderr lines. A
 * server's URL (whose host, path or query may say more than the server's name should), its header values and its
 * declared env values are secrets, and so is everything the registry's shared SecretRedactor knows (a deployment's
 * resolved secret references — args included — and the credentials obtained while running: OAuth tokens, strategy
 * headers). Only that foreign text is redacted, never the registry's own framing around it: a server named like one
 * of its own env values (`git` with `TOOL=git`) is still named in every message.
 */
import { createSecretRedactor, type SecretRedactor } from "../secret-redactor.js";
import type { ServerSpecification } from "./types.js";

/** Removes a server's secrets (and anything URL-shaped) from a text that came from the server or its transport. */
export type Redactor = (foreign: string) => string;

/**
 * A function that removes the given secrets (and anything URL-shaped) from a text.
 * @example
 * const redact = createRedactor(["https://h.example/mcp/sk-123", "Bearer abc123"]);
 * redact("POST https://h.example/mcp/sk-123 failed") // "POST <url> failed"
 */
export function createRedactor(secrets: readonly string[], shared?: SecretRedactor): Redactor {
  const own = createSecretRedactor(secrets.flatMap(expandSecret));
  return (text: string) => {
    const out = own.redact(text);
    return (shared === undefined ? out : shared.redact(out)).replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]+/gi, "<url>");
  };
}

/**
 * The redactor of one server: its URL and header values (http), or its declared env values (stdio), and whatever
 * the registry's shared redactor knows.
 * @example
 * redactorOf(ServerSpec.stdio("git", "uvx", [], { env: { TOKEN: "sk-123456" } }))("bad token sk-123456") // "bad token <redacted>"
 */
export function redactorOf(spec: ServerSpecification, shared?: SecretRedactor): Redactor {
  if (spec.transport === "http") return createRedactor([spec.url, ...Object.values(spec.headers ?? {})], shared);
  if (spec.transport === "stdio") return createRedactor(Object.values(spec.env ?? {}), shared);
  return createRedactor([], shared);
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
