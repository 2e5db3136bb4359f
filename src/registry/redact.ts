/**
 * Secret redaction for anything the registry says about a server: `unavailable` messages, error results and logs.
 * A server's URL (whose host, path or query may say more than the server's name should), its header values and its
 * declared env values are secrets by default, so every message built from a foreign error passes through here.
 */

const MIN_SECRET_LENGTH = 4;

/**
 * A function that removes the given secrets (and anything URL-shaped) from a text.
 * @example
 * const redact = createRedactor(["https://h.example/mcp/sk-123", "Bearer abc123"]);
 * redact("POST https://h.example/mcp/sk-123 failed") // "POST <url> failed"
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const parts = [...new Set(secrets.flatMap(expandSecret))]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const secret of parts) out = out.split(secret).join("<redacted>");
    return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]+/gi, "<url>");
  };
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
