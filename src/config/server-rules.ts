/**
 * The rules of `servers:` that one key's schema cannot express (docs/design.md §11): a server's name must be a toolset
 * name; its transport follows from `command` or `url` and the other transport's keys are refused with the reason;
 * `headers` and `auth` exclude each other; URLs, header and environment variable names are checked. Runs on the
 * raw (resolved) input, so these problems are reported even when other keys are broken.
 */
import { toolsetNameProblem } from "../extension/toolset-name.js";
import type { PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";
import { DEFAULT_SERVER_TIMEOUT_MS } from "./schema-servers.js";
import { urlProblem } from "./url-rule.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const STDIO_ONLY = ["command", "args", "env", "cwd", "killGraceMs"] as const;
const HTTP_ONLY = ["url", "headers", "auth"] as const;

const NOT_FOR_STDIO: Record<(typeof HTTP_ONLY)[number], string> = {
  url: "a stdio server is started by mcp-host as a subprocess and has no URL; remove url, or set transport: http",
  headers: "a stdio server is a subprocess, not a connection, so there is nothing to send headers on; pass its credentials in env",
  auth: "a stdio server is a subprocess, not a connection, so there is nothing to authenticate; pass its credentials in env",
};

function notForHttp(key: string): string {
  return `an http server is reached at its url, not started by mcp-host, so ${key} has no effect; remove it, or set transport: stdio`;
}

/** The transport problems of one server, and its transport when it can be told. */
function transportProblems(name: string, server: Record<string, unknown>): { transport?: "stdio" | "http"; problems: PathProblem[] } {
  const at = (key: string, message: string): PathProblem => ({ code: "MCP_TRANSPORT_INVALID", path: ["servers", name, key], message });
  const out: PathProblem[] = [];
  let transport: "stdio" | "http" | undefined;
  if (server.transport === "stdio" || server.transport === "http") transport = server.transport;
  else if (server.transport !== undefined) out.push(at("transport", 'must be "stdio" (a command mcp-host starts) or "http" (a url it connects to)'));
  const has = (key: string) => server[key] !== undefined;
  if (transport === undefined) {
    if (has("command") && has("url")) {
      return {
        problems: [
          ...out,
          { code: "MCP_TRANSPORT_INVALID", path: ["servers", name], message: "has both command (stdio) and url (http); keep the one for its transport" },
        ],
      };
    }
    if (!has("command") && !has("url")) {
      return {
        problems: [
          ...out,
          {
            code: "MCP_TRANSPORT_INVALID",
            path: ["servers", name],
            message: "needs a command (a stdio server mcp-host starts) or a url (an http server it connects to)",
          },
        ],
      };
    }
    transport = has("command") ? "stdio" : "http";
  }
  if (transport === "stdio") {
    if (!has("command")) out.push(at("command", "a stdio server needs a command to start"));
    for (const key of HTTP_ONLY) if (has(key)) out.push(at(key, NOT_FOR_STDIO[key]));
  } else {
    if (!has("url")) out.push(at("url", "an http server needs a url"));
    for (const key of STDIO_ONLY) if (has(key)) out.push(at(key, notForHttp(key)));
  }
  return { transport, problems: out };
}

function stdioProblems(name: string, server: Record<string, unknown>): PathProblem[] {
  const out: PathProblem[] = [];
  if (isRecord(server.env)) {
    for (const key of Object.keys(server.env)) {
      if (!ENV_NAME.test(key))
        out.push({
          code: "MCP_TRANSPORT_INVALID",
          path: ["servers", name, "env", key],
          message: "is not an environment variable name (letters, digits and _, not starting with a digit)",
        });
    }
  }
  return out;
}

function httpProblems(name: string, server: Record<string, unknown>): PathProblem[] {
  const base = ["servers", name];
  const out: PathProblem[] = [];
  if (isRecord(server.headers)) {
    for (const [key, value] of Object.entries(server.headers)) {
      if (!HEADER_NAME.test(key)) out.push({ code: "CONFIG_INVALID", path: [...base, "headers", key], message: "is not a valid HTTP header name" });
      else if (typeof value === "string" && /[\r\n\0]/.test(value))
        out.push({ code: "CONFIG_INVALID", path: [...base, "headers", key], message: "contains a line break or NUL; a header value is one line" });
    }
    if (Object.keys(server.headers).length > 0 && server.auth !== undefined) {
      out.push({
        code: "MCP_AUTH_CONFLICT",
        path: [...base, "auth"],
        message: "is set together with headers; credentials come from one of them, so remove headers or auth",
      });
    }
  }
  if (typeof server.url === "string") {
    const why = urlProblem(server.url, { query: "refuse", hint: "put credentials in headers or auth" });
    if (why) out.push({ code: "MCP_URL_INVALID", path: [...base, "url"], message: `the URL ${why}` });
  }
  if (isRecord(server.auth) && typeof server.auth.tokenUrl === "string") {
    const why = urlProblem(server.auth.tokenUrl, { query: "allow", hint: "put credentials in clientId and clientSecret" });
    if (why) out.push({ code: "MCP_URL_INVALID", path: [...base, "auth", "tokenUrl"], message: `the URL ${why}` });
  }
  if (isRecord(server.auth) && server.auth.kind === "oauth") out.push(...oauthEndpointProblems(name, server.auth));
  return out;
}

/**
 * OAuth client credentials send a secret: the config must say where (tokenUrl, or the issuer whose own metadata
 * names the endpoint), or the upstream's protected-resource metadata would choose — any origin.
 */
function oauthEndpointProblems(name: string, auth: Record<string, unknown>): PathProblem[] {
  const path = ["servers", name, "auth"];
  const out: PathProblem[] = [];
  if (typeof auth.issuer === "string") {
    const why = urlProblem(auth.issuer, { query: "refuse", hint: "an issuer is a plain https URL" });
    if (why) out.push({ code: "MCP_URL_INVALID", path: [...path, "issuer"], message: `the URL ${why}` });
  }
  if (auth.tokenUrl === undefined && auth.issuer === undefined) {
    out.push({
      code: "MCP_OAUTH_ENDPOINT_REQUIRED",
      path,
      message:
        "OAuth client credentials need tokenUrl (the token endpoint) or issuer (the authorization server, whose metadata names it); without either, the upstream server would choose where the client secret is sent",
    });
  }
  return out;
}

function timeoutProblems(name: string, server: Record<string, unknown>): PathProblem[] {
  if (typeof server.maxTotalTimeoutMs !== "number") return [];
  const idle = typeof server.timeoutMs === "number" ? server.timeoutMs : DEFAULT_SERVER_TIMEOUT_MS;
  if (server.maxTotalTimeoutMs >= idle) return [];
  return [
    {
      code: "CONFIG_INVALID",
      path: ["servers", name, "maxTotalTimeoutMs"],
      message: `must be at least timeoutMs (${idle}): it caps a whole call, progress or not`,
    },
  ];
}

/**
 * Problems of the `servers` section beyond its schema.
 * @example
 * serverProblems({ git: { command: "uvx", url: "https://x.example.com/mcp" } })
 * // [{ code: "MCP_TRANSPORT_INVALID", path: ["servers", "git"], message: "has both command (stdio) and url (http); …" }]
 */
export function serverProblems(servers: unknown): PathProblem[] {
  if (!isRecord(servers)) return [];
  const out: PathProblem[] = [];
  for (const [name, server] of Object.entries(servers)) {
    const badName = toolsetNameProblem(name);
    if (badName) out.push({ code: "CONFIG_INVALID", path: ["servers", name], message: `a server's name is its toolset's name: ${badName}` });
    if (!isRecord(server)) continue;
    const { transport, problems } = transportProblems(name, server);
    out.push(...problems, ...timeoutProblems(name, server));
    if (transport === "http") out.push(...httpProblems(name, server));
    else out.push(...stdioProblems(name, server));
  }
  return out;
}
