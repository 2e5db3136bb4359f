/**
 * What the host-level auth tests share: a real host served on 127.0.0.1:0 with `auth` on, verifying JWTs against
 * the fixture authorization server's real JWKS endpoint on loopback; extensions whose tools record every run (so a
 * test can assert that nothing ran); raw MCP request bodies for both eras; and a leak watch that collects every
 * log line of every host a test file starts, and every token the file used, so an `after` hook can assert that no
 * token ever reached a log line.
 */
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import type { HostOptions } from "../../src/host/host-options.js";
import type { HostAuthOptions } from "../../src/http/host-auth-options.js";
import type { ListenOptions } from "../../src/http/listen.js";
import { createLogger, type LogRecord } from "../../src/logger.js";
import type { AuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { type Cleanup, serveHost, type ServedHost } from "./http-host.js";

/** The audience the fixture authorization server puts in tokens whose request names no resource. */
export const AUDIENCE = "urn:test:mcp";

/** Collects log records and tokens across a test file. */
export class LeakWatch {
  readonly records: LogRecord[] = [];
  private readonly tokens = new Set<string>();

  /** Remembers a token the test made or sent (the fixture's issued tokens are added by `assertClean`). */
  track(token: string): string {
    this.tokens.add(token);
    return token;
  }

  /** Asserts that no tracked or issued token — nor its signature part — appears in any log line. */
  assertClean(issued: readonly string[] = []): void {
    const lines = this.records.map((r) => JSON.stringify(r));
    assert.ok(lines.length > 0, "the suite logged something (otherwise this check proves nothing)");
    for (const token of [...this.tokens, ...issued]) {
      const parts = [token, ...token.split(".").filter((p) => p.length >= 16)];
      for (const part of parts) {
        const line = lines.find((l) => l.includes(part));
        assert.equal(line, undefined, `a log line carries a token: ${line}`);
      }
    }
  }
}

/** Every tool run, as "toolset/tool subject". */
export type Runs = string[];

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/**
 * notes (default), admin (default, guarded by mcp:admin in the default auth), extra (not default). `whoami`
 * answers what its ctx says about the caller and the selection.
 */
export function authExtensions(runs: Runs): McpExtension[] {
  const subjectOf = (auth: unknown) => String((auth as { extra?: { subject?: unknown } } | undefined)?.extra?.subject ?? "-");
  return [
    {
      name: "notes",
      toolsets: [{ name: "notes", title: "Notes" }],
      tools: [
        {
          name: "read_note",
          handler: (_args, ctx) => {
            runs.push(`notes/read_note ${subjectOf(ctx.auth)}`);
            return text("a note");
          },
        },
        {
          name: "whoami",
          handler: (_args, ctx) => {
            runs.push(`notes/whoami ${subjectOf(ctx.auth)}`);
            return text(JSON.stringify({ auth: ctx.auth ?? null, selection: ctx.selection, era: ctx.era }));
          },
        },
      ],
    },
    {
      name: "admin",
      toolsets: [{ name: "admin", title: "Administration", instructions: "Use wipe with care." }],
      tools: [
        {
          name: "wipe",
          handler: (_args, ctx) => {
            runs.push(`admin/wipe ${subjectOf(ctx.auth)}`);
            return text("wiped");
          },
        },
      ],
    },
    {
      name: "extra",
      toolsets: [{ name: "extra", default: false }],
      tools: [
        {
          name: "extra_tool",
          handler: (_args, ctx) => {
            runs.push(`extra/extra_tool ${subjectOf(ctx.auth)}`);
            return text("extra");
          },
        },
      ],
    },
  ];
}

export interface AuthHost extends ServedHost {
  runs: Runs;
  /** Mints a JWT at the fixture (default claims: sub user-1, aud urn:test:mcp, scope mcp:read), tracked. */
  token(claims?: Record<string, unknown>): Promise<string>;
}

/** The default `auth` option for a fixture authorization server. */
export function defaultAuth(as: AuthorizationServer): HostAuthOptions {
  return {
    issuer: as.issuer,
    audience: AUDIENCE,
    jwksUri: as.jwksUri,
    requiredScopes: ["mcp:read"],
    toolsetScopes: { admin: ["mcp:admin"] },
  };
}

/** Serves `authExtensions` (or `extensions`) with auth on; every log line goes to `watch`. */
export async function serveAuthHost(
  cleanup: Cleanup,
  watch: LeakWatch,
  as: AuthorizationServer,
  options: { auth?: Partial<HostAuthOptions>; http?: ListenOptions; host?: Partial<HostOptions>; extensions?: McpExtension[]; runs?: Runs } = {},
): Promise<AuthHost> {
  const runs = options.runs ?? [];
  const records: LogRecord[] = [];
  // Every record this host logs also lands in the file-wide watch.
  const logger = createLogger({
    level: "debug",
    sink: (record) => {
      records.push(record);
      watch.records.push(record);
    },
  });
  const served = await serveHost(cleanup, options.extensions ?? authExtensions(runs), {
    host: { logger, ...options.host },
    http: { ...options.http, auth: { ...defaultAuth(as), ...options.auth } as HostAuthOptions },
  });
  return { ...served, records, runs, token: async (claims = {}) => watch.track(await as.mint(claims)) };
}

/** `Authorization: Bearer <token>`. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Headers of a 2026-07-28 POST for `method` (and `name`, for tools/call). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** A 2026-07-28 request body. */
export function modernBody(method: string, params: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } });
}

/** A 2025-era request body on a session. */
export function legacyBody(method: string, params: Record<string, unknown> = {}, id = 2): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}
