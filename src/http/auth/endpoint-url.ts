/**
 * The check every verifier endpoint (JWKS, introspection) passes when the verifier is made: an absolute https URL,
 * or plain http only on loopback unless explicitly allowed, because keys and introspection answers fetched over a
 * network in clear text can be swapped by anyone on the path. Messages name the option, never the URL.
 */
import { authConfigError } from "./refusals.js";

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Parses and checks an endpoint option.
 * @example
 * const url = endpointUrl("jwtVerifier", "jwksUri", options.jwksUri, options.allowInsecureHttp);
 */
export function endpointUrl(owner: string, option: string, value: unknown, allowInsecureHttp = false): URL {
  const text = value instanceof URL ? value.href : value;
  if (typeof text !== "string" || !URL.canParse(text)) {
    throw authConfigError(`${owner}: \`${option}\` must be an absolute URL (https://…)`);
  }
  const url = new URL(text);
  if (url.username !== "" || url.password !== "") {
    throw authConfigError(`${owner}: \`${option}\` must not carry credentials in the URL; pass them as options instead`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (LOOPBACK.has(url.hostname) || allowInsecureHttp)) return url;
  throw authConfigError(
    `${owner}: \`${option}\` must use https (plain http is accepted only on loopback, or with allowInsecureHttp: true on a network you trust)`,
  );
}
