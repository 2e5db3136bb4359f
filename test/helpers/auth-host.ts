/**
 * What the host-level auth tests share: a real host served on 127.0.0.1:0 with `auth` on, verifying JWTs against
 * the fixture authorization server's real JWKS endpoint on loopback; extensions whose tools record every run (so a
 * test can assert that nothing ran); a leak watch that collects every log line of every host a test file starts,
 * and every token the file used, so an `after` hook can assert that no token ever reached a log line; and
 * `authTestFile`, the hooks every such file starts with (so each file states only what it tests, and none can
 * forget the leak check or leave an authorization server running).
 */
import assert from "node:assert/strict";
import { after, afterEach, before } from "node:test";
import type { McpExtension } from "../../src/extension/types.js";
import type { HostOptions } from "../../src/host/host-options.js";
import type { HostAuthOptions } from "../../src/http/auth/host-auth-options.js";
import type { ListenOptions } from "../../src/http/listen.js";
import { createLogger, type LogRecord } from "../../src/logger.js";
import { type AuthorizationServer, type AuthorizationServerOptions, startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { Cleanup, serveHost, type ServedHost } from "./http-host.js";

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

/**
 * The fixed reason a verifier gives (in its error, and the host in its log line) for each attack the tests make —
 * restated here on purpose, not imported from src, so a changed message fails the tests.
 */
export const REFUSAL_REASONS = {
  algorithm: "the access token is signed with an algorithm this server does not accept",
  criticalHeader: "the access token has a critical header extension this server does not understand",
  signature: "the access token's signature does not verify",
  unknownKey: "the access token is signed by a key the issuer does not publish",
  expired: "the access token has expired",
  notYetValid: "the access token is not valid yet (nbf is in the future)",
  issuer: "the access token was issued by an issuer this server does not accept",
  audience: "the access token was issued for another resource (its audience does not name this server)",
} as const;

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

/** What `serveAuthHost` may change: the auth, HTTP and host options, the extensions and their run log. */
export interface AuthHostOptions {
  auth?: Partial<HostAuthOptions>;
  http?: ListenOptions;
  host?: Partial<HostOptions>;
  extensions?: McpExtension[];
  runs?: Runs;
}

/** Serves `authExtensions` (or `extensions`) with auth on; every log line goes to `watch`. */
export async function serveAuthHost(cleanup: Cleanup, watch: LeakWatch, as: AuthorizationServer, options: AuthHostOptions = {}): Promise<AuthHost> {
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

/**
 * Starts a fixture authorization server for one test; `cleanup` closes it once the test is done.
 * @example
 * const as = await authorizationServerFor(cleanup);
 */
export async function authorizationServerFor(cleanup: Cleanup, options?: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const server = await startAuthorizationServer(options);
  cleanup.add(() => server.close());
  return server;
}

/** The cleanup list, leak watch and authorization server(s) of one auth test file (`authTestFile`). */
export interface AuthTestFile {
  readonly cleanup: Cleanup;
  readonly watch: LeakWatch;
  /** The fixture authorization server the hosts trust (started in `before`). */
  readonly as: AuthorizationServer;
  /** A second fixture authorization server no host trusts (only with `attacker: true`). */
  readonly attacker: AuthorizationServer;
  /** `serveAuthHost` against `as`, closed by `cleanup`, logging into `watch`. */
  serve(options?: AuthHostOptions): Promise<AuthHost>;
}

/**
 * Registers the hooks of a host-level auth test file: the fixture authorization server (and, with `attacker`, a
 * second one) started before the file and closed after it, the cleanup list run after each test, and — once the
 * file is done — the leak check against every token the file used or the servers issued.
 * @example
 * const file = authTestFile();
 * it("serves with a token", async () => {
 *   const served = await file.serve();
 *   await raw({ url: served.url, headers: bearer(await served.token()) });
 * });
 */
export function authTestFile(options: { server?: AuthorizationServerOptions; attacker?: boolean } = {}): AuthTestFile {
  const servers: { as?: AuthorizationServer; attacker?: AuthorizationServer } = {};
  const started = (name: "as" | "attacker"): AuthorizationServer => {
    const server = servers[name];
    if (server === undefined)
      throw new Error(`authTestFile: no "${name}" authorization server (it starts in before${name === "attacker" ? ", with attacker: true" : ""})`);
    return server;
  };
  const file: AuthTestFile = {
    cleanup: new Cleanup(),
    watch: new LeakWatch(),
    get as() {
      return started("as");
    },
    get attacker() {
      return started("attacker");
    },
    serve: (hostOptions) => serveAuthHost(file.cleanup, file.watch, file.as, hostOptions),
  };
  before(async () => {
    servers.as = await startAuthorizationServer(options.server);
    if (options.attacker) servers.attacker = await startAuthorizationServer();
  });
  afterEach(() => file.cleanup.run());
  after(async () => {
    const all = [servers.as, servers.attacker].filter((s) => s !== undefined);
    file.watch.assertClean(all.flatMap((s) => s.issuedTokens()));
    for (const server of all) await server.close();
  });
  return file;
}
