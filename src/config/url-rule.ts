/**
 * The rule for URLs mcp-host dials or publishes (docs/design.md §11): https, except plain http to loopback; no user name
 * or password; no fragment; and, where credentials could hide in it, no query string. Messages say what is wrong
 * and never repeat the URL, which may carry a key.
 */

/**
 * localhost, 127.0.0.0/8 and [::1], as `URL.hostname` writes them.
 * @example
 * LOOPBACK_HOST.test(new URL("http://[::1]:3000/").hostname) // true
 */
export const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why `value` is not an acceptable URL, or undefined.
 * @example
 * urlProblem("http://example.com/mcp", { query: "refuse" }) // "uses http:// for a non-loopback host; …"
 * urlProblem("http://127.0.0.1:3000/mcp", { query: "refuse" }) // undefined
 */
export function urlProblem(value: string, options: { query: "refuse" | "allow"; hint: string }): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a valid absolute URL (write https://host/path)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "uses a scheme other than https://";
  if (url.protocol === "http:" && !LOOPBACK_HOST.test(url.hostname)) {
    return "uses http:// for a non-loopback host; use https:// (plain http is allowed only for localhost, 127.0.0.0/8 and [::1])";
  }
  if (url.username || url.password) return `contains a user name or password; ${options.hint}`;
  if (options.query === "refuse" && url.search) return `has a query string; ${options.hint}`;
  if (url.hash) return "has a fragment (#…); remove it";
  return undefined;
}
