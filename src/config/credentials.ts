/**
 * Which settings are credentials (docs/design.md §11, §12). A credential must be written as a secret reference, so the
 * file can be committed, shown and logged: every upstream header value, `token` and `clientSecret` of an upstream's
 * auth, every string setting of a custom auth kind, the top-level `hs256Secret`, `introspection.clientSecret`
 * and `keys`, and `scaleOut.stateKey` (it signs the fleet's requestState). A literal is refused with MCP_CREDENTIALS_INLINE, which names the key and never the value.
 */
import type { KeyPath, PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";
import { BUILT_IN_AUTH_KINDS } from "./schema-servers.js";
import { parseReferences } from "./secret-refs.js";

/** A credential's place in the configuration and what is written there. */
export interface CredentialField {
  path: KeyPath;
  value: string;
}

function stringsUnder(value: unknown, path: KeyPath, out: CredentialField[], skipKey?: string): void {
  if (typeof value === "string") out.push({ path, value });
  else if (Array.isArray(value))
    value.forEach((v, i) => {
      stringsUnder(v, [...path, i], out);
    });
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) if (k !== skipKey) stringsUnder(v, [...path, k], out);
}

function serverCredentials(name: string, server: Record<string, unknown>, out: CredentialField[]): void {
  const base = ["servers", name];
  if (isRecord(server.headers)) for (const [header, v] of Object.entries(server.headers)) stringsUnder(v, [...base, "headers", header], out);
  const auth = server.auth;
  if (!isRecord(auth)) return;
  if (typeof auth.kind === "string" && BUILT_IN_AUTH_KINDS.includes(auth.kind)) {
    for (const key of ["token", "clientSecret"]) if (typeof auth[key] === "string") out.push({ path: [...base, "auth", key], value: auth[key] });
  } else {
    stringsUnder(auth, [...base, "auth"], out, "kind");
  }
}

/**
 * Every credential-bearing string in a raw configuration.
 * @example
 * credentialFields({ auth: { hs256Secret: "${env:S}" } }) // [{ path: ["auth", "hs256Secret"], value: "${env:S}" }]
 */
export function credentialFields(raw: unknown): CredentialField[] {
  const out: CredentialField[] = [];
  if (!isRecord(raw)) return out;
  if (isRecord(raw.servers)) for (const [name, server] of Object.entries(raw.servers)) if (isRecord(server)) serverCredentials(name, server, out);
  const auth = raw.auth;
  if (isRecord(auth)) {
    if (typeof auth.hs256Secret === "string") out.push({ path: ["auth", "hs256Secret"], value: auth.hs256Secret });
    if (isRecord(auth.introspection) && typeof auth.introspection.clientSecret === "string") {
      out.push({ path: ["auth", "introspection", "clientSecret"], value: auth.introspection.clientSecret });
    }
    if (Array.isArray(auth.keys)) stringsUnder(auth.keys, ["auth", "keys"], out);
  }
  if (isRecord(raw.scaleOut) && typeof raw.scaleOut.stateKey === "string") out.push({ path: ["scaleOut", "stateKey"], value: raw.scaleOut.stateKey });
  return out;
}

/**
 * MCP_CREDENTIALS_INLINE for every credential written without a secret reference.
 * @example
 * inlineCredentialProblems({ servers: { kb: { url: "https://kb.example.com/mcp", headers: { "X-Key": "sk-1" } } } })
 * // [{ code: "MCP_CREDENTIALS_INLINE", path: ["servers", "kb", "headers", "X-Key"], message: "is a credential …" }]
 */
export function inlineCredentialProblems(raw: unknown): PathProblem[] {
  return credentialFields(raw)
    .filter((field) => {
      // An unclosed `${env:…` was meant as a reference: it is reported as unresolved, not as a literal.
      const { parts, unterminated } = parseReferences(field.value);
      return !unterminated && !parts.some((p) => "kind" in p);
    })
    .map((field) => ({
      code: "MCP_CREDENTIALS_INLINE",
      path: field.path,
      message: 'is a credential and must be a secret reference such as "${env:NAME}" or "${file:./path}", not a literal value (the value is not shown)',
    }));
}
