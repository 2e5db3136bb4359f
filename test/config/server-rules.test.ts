// The rules of `servers:`: command makes a server stdio and url makes it http; each refuses the other's keys with
// the reason; a server needs exactly one of them; headers and auth exclude each other; env and header names are
// checked; a server's name is a toolset name. Every problem names the key, none repeats a secret or a URL.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

describe("the transport of a server", () => {
  it("infers stdio from command and http from url, with the registry's defaults", async () => {
    const loaded = await loadYaml(
      "servers:\n  git: { command: uvx, args: [mcp-server-git], env: { GIT_AUTHOR_NAME: agent }, cwd: ./repo }\n  kb: { url: https://kb.example.com/mcp }\n",
    );
    const common = {
      default: true,
      include: [],
      exclude: [],
      deniedTools: [],
      timeoutMs: 60_000,
      probeTimeoutMs: 5_000,
      approval: "never",
      unannotated: "safe",
      structuredContent: "error",
    };
    assert.deepEqual(loaded.config.servers.git, {
      ...common,
      transport: "stdio",
      command: "uvx",
      args: ["mcp-server-git"],
      env: { GIT_AUTHOR_NAME: "agent" },
      cwd: `${loaded.source!.replace(/\/\.mcp-hostrc\.yaml$/, "")}/repo`,
      killGraceMs: 3_000,
    });
    assert.deepEqual(loaded.config.servers.kb, { ...common, transport: "http", url: "https://kb.example.com/mcp", headers: {} });
  });

  it("refuses url, headers and auth on a stdio server: a subprocess has no connection", async () => {
    const yaml =
      "servers:\n  git: { transport: stdio, command: uvx, url: 'https://x.example.com/mcp?k=sk-URL', headers: { K: '${env:K}' }, auth: { kind: bearer, token: '${env:T}' } }\n";
    const r = await refused(
      loadYaml(yaml, { env: { K: "k-S3CRET", T: "t-S3CRET" } }),
      [
        ["MCP_TRANSPORT_INVALID", "servers.git.auth"],
        ["MCP_TRANSPORT_INVALID", "servers.git.headers"],
        ["MCP_TRANSPORT_INVALID", "servers.git.url"],
      ],
      ["sk-URL", "x.example.com", "k-S3CRET", "t-S3CRET"],
    );
    assert.equal(
      messageAt(r, "servers.git.auth"),
      "a stdio server is a subprocess, not a connection, so there is nothing to authenticate; pass its credentials in env",
    );
    assert.equal(
      messageAt(r, "servers.git.headers"),
      "a stdio server is a subprocess, not a connection, so there is nothing to send headers on; pass its credentials in env",
    );
    assert.equal(messageAt(r, "servers.git.url"), "a stdio server is started by mcp-host as a subprocess and has no URL; remove url, or set transport: http");
  });

  it("refuses command, args, env, cwd and killGraceMs on an http server", async () => {
    const yaml = "servers:\n  kb: { transport: http, url: https://kb.example.com/mcp, command: x, args: [a], env: { A: b }, cwd: /tmp, killGraceMs: 10 }\n";
    const r = await refused(
      loadYaml(yaml),
      [
        ["MCP_TRANSPORT_INVALID", "servers.kb.args"],
        ["MCP_TRANSPORT_INVALID", "servers.kb.command"],
        ["MCP_TRANSPORT_INVALID", "servers.kb.cwd"],
        ["MCP_TRANSPORT_INVALID", "servers.kb.env"],
        ["MCP_TRANSPORT_INVALID", "servers.kb.killGraceMs"],
      ],
      ["kb.example.com"],
    );
    assert.equal(
      messageAt(r, "servers.kb.env"),
      "an http server is reached at its url, not started by mcp-host, so env has no effect; remove it, or set transport: stdio",
    );
  });

  it("refuses a server with neither command nor url, with both, or with an unknown transport", async () => {
    const yaml =
      "servers:\n  none: { title: Nothing }\n  both: { command: uvx, url: 'https://b.example.com/mcp' }\n  odd: { transport: websocket, url: https://o.example.com/mcp }\n  bare: { transport: http }\n  stdio: { transport: stdio, args: [x] }\n";
    const r = await refused(
      loadYaml(yaml),
      [
        ["MCP_TRANSPORT_INVALID", "servers.bare.url"],
        ["MCP_TRANSPORT_INVALID", "servers.both"],
        ["MCP_TRANSPORT_INVALID", "servers.none"],
        ["MCP_TRANSPORT_INVALID", "servers.odd.transport"],
        ["MCP_TRANSPORT_INVALID", "servers.stdio.command"],
      ],
      ["b.example.com", "o.example.com"],
    );
    assert.equal(messageAt(r, "servers.none"), "needs a command (a stdio server mcp-host starts) or a url (an http server it connects to)");
    assert.equal(messageAt(r, "servers.both"), "has both command (stdio) and url (http); keep the one for its transport");
    assert.equal(messageAt(r, "servers.odd.transport"), 'must be "stdio" (a command mcp-host starts) or "http" (a url it connects to)');
    assert.equal(messageAt(r, "servers.bare.url"), "an http server needs a url");
    assert.equal(messageAt(r, "servers.stdio.command"), "a stdio server needs a command to start");
  });

  it("refuses env names that are not identifiers, without repeating their values", async () => {
    const r = await refused(
      loadYaml("servers:\n  git: { command: uvx, env: { 'BAD NAME': v-SECRET-1, 1ST: v-SECRET-2, OK_NAME: fine } }\n"),
      [
        ["MCP_TRANSPORT_INVALID", 'servers.git.env["1ST"]'],
        ["MCP_TRANSPORT_INVALID", 'servers.git.env["BAD NAME"]'],
      ],
      ["v-SECRET-1", "v-SECRET-2"],
    );
    assert.equal(messageAt(r, 'servers.git.env["1ST"]'), "is not an environment variable name (letters, digits and _, not starting with a digit)");
  });
});

describe("credentials and names of a server", () => {
  it("refuses headers together with auth", async () => {
    const yaml = "servers:\n  kb: { url: https://kb.example.com/mcp, headers: { X-Key: '${env:K}' }, auth: { kind: bearer, token: '${env:T}' } }\n";
    const r = await refused(
      loadYaml(yaml, { env: { K: "k-S3CRET", T: "t-S3CRET" } }),
      [["MCP_AUTH_CONFLICT", "servers.kb.auth"]],
      ["k-S3CRET", "t-S3CRET", "kb.example.com"],
    );
    assert.equal(messageAt(r, "servers.kb.auth"), "is set together with headers; credentials come from one of them, so remove headers or auth");
  });

  it("refuses OAuth client credentials that name neither tokenUrl nor issuer, and checks the issuer's URL", async () => {
    const oauth = (more: string) => `{ kind: oauth, clientId: gw, clientSecret: '\${env:S}'${more} }`;
    const yaml = [
      "servers:",
      `  none: { url: https://a.example.com/mcp, auth: ${oauth("")} }`,
      `  query: { url: https://b.example.com/mcp, auth: ${oauth(", issuer: 'https://id.example.com/?tenant=x'")} }`,
      `  issuer: { url: https://c.example.com/mcp, auth: ${oauth(", issuer: https://id.example.com")} }`,
      `  token: { url: https://d.example.com/mcp, auth: ${oauth(", tokenUrl: https://id.example.com/token")} }`,
    ].join("\n");
    const r = await refused(
      loadYaml(yaml, { env: { S: "s-S3CRET" } }),
      [
        ["MCP_OAUTH_ENDPOINT_REQUIRED", "servers.none.auth"],
        ["MCP_URL_INVALID", "servers.query.auth.issuer"],
      ],
      ["s-S3CRET"],
    );
    assert.equal(
      messageAt(r, "servers.none.auth"),
      "OAuth client credentials need tokenUrl (the token endpoint) or issuer (the authorization server, whose metadata names it); without either, the upstream server would choose where the client secret is sent",
    );
    assert.equal(messageAt(r, "servers.query.auth.issuer"), "the URL has a query string; an issuer is a plain https URL");
  });

  it("refuses a header name that is not an HTTP token and a value with a line break", async () => {
    const yaml = "servers:\n  kb: { url: https://kb.example.com/mcp, headers: { 'Bad Header': '${env:K}', X-Split: '${env:SPLIT}' } }\n";
    const r = await refused(
      loadYaml(yaml, { env: { K: "k-S3CRET", SPLIT: "line1-S3CRET\r\nInjected: yes" } }),
      [
        ["CONFIG_INVALID", 'servers.kb.headers["Bad Header"]'],
        ["CONFIG_INVALID", "servers.kb.headers.X-Split"],
      ],
      ["line1-S3CRET", "Injected"],
    );
    assert.equal(messageAt(r, "servers.kb.headers.X-Split"), "contains a line break or NUL; a header value is one line");
  });

  it("refuses server names that are not toolset names", async () => {
    const r = await refused(loadYaml("servers:\n  'a,b': { command: x }\n  only: { command: y }\n  fine.name: { command: z }\n"), [
      ["CONFIG_INVALID", 'servers["a,b"]'],
      ["CONFIG_INVALID", "servers.only"],
    ]);
    assert.equal(
      messageAt(r, "servers.only"),
      `a server's name is its toolset's name: toolset name "only" is a reserved word of the URL selection grammar; use 1 to 64 letters, digits or ". _ ~ - @ /" (no commas, spaces, "&", "=", "+", "%", "#" or "?"), and not a word of the grammar: "all", "default", "only", "readonly", "search", "tools", "toolsets" or "without"`,
    );
  });

  it("refuses maxTotalTimeoutMs below timeoutMs (set or default)", async () => {
    const r = await refused(
      loadYaml("servers:\n  a: { command: x, timeoutMs: 5000, maxTotalTimeoutMs: 4000 }\n  b: { command: x, maxTotalTimeoutMs: 30000 }\n"),
      [
        ["CONFIG_INVALID", "servers.a.maxTotalTimeoutMs"],
        ["CONFIG_INVALID", "servers.b.maxTotalTimeoutMs"],
      ],
    );
    assert.equal(messageAt(r, "servers.b.maxTotalTimeoutMs"), "must be at least timeoutMs (60000): it caps a whole call, progress or not");
  });
});
