// Attack test, issue 17 class 5: every secret is redacted everywhere. A deployment run by the real `mcp-host` command
// holds a distinct secret in every place one can live — a stdio server's args and env, an http server's headers, a
// bearer token, an OAuth client secret, a contributed auth strategy's settings, the introspection client secret, an
// extension's options — and obtains two more while it runs (the OAuth access token a real token endpoint issues, the
// header the strategy computes). Its upstreams repeat whatever they got in tool results, isError results, JSON-RPC
// errors, resources, prompts, stderr lines, HTTP error bodies and dying words; the extension logs its options and
// writes them to console.error. Then every output is searched for every secret: the serve process's stderr, what a
// real client gets back, /healthz, /toolsets, the operator page's data, and `mcp-host check` (text and JSON).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { LeakyHttpUpstream } from "../fixtures/upstream/leaky-http.js";
import { REPO, assertBuilt, runCli, startCli } from "../helpers/cli-process.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const LEAKY = join(REPO, "test", "fixtures", "upstream", "leaky-stdio.mjs");

/** One distinct secret per place a secret can live, each named after its place. */
const SECRETS = {
  ARG_SECRET: "arg-S3CRET-4f1c9a",
  ENV_SECRET: "env-S3CRET-77b2e0",
  DEAD_ARG_SECRET: "dead-arg-S3CRET-0c55d1",
  HEADER_SECRET: "header-S3CRET-9e02aa",
  BEARER_SECRET: "bearer-S3CRET-31d7f4",
  OAUTH_CLIENT_SECRET: "oauth-client-S3CRET-c8a613",
  STRATEGY_SETTING_SECRET: "strategy-setting-S3CRET-5b90e2",
  INTROSPECTION_SECRET: "introspection-S3CRET-e4d2b7",
  EXTENSION_OPTION_SECRET: "extension-option-S3CRET-a1f08c",
};

/** The header the contributed strategy computes from its setting: a credential no config file holds. */
const STRATEGY_HEADER = `hvs.${createHash("sha256").update(SECRETS.STRATEGY_SETTING_SECRET).digest("hex").slice(0, 32)}`;

const VAULT_EXTENSION = `import { createHash } from "node:crypto";
export default {
  name: "vault",
  toolsets: [{ name: "vault", default: false }],
  authStrategies: {
    vault: (settings) => ({
      headers: async () => ({ "X-Vault-Token": "hvs." + createHash("sha256").update(String(settings.secretId)).digest("hex").slice(0, 32) }),
    }),
  },
  setup(ctx) {
    ctx.logger.warn("vault configured with " + JSON.stringify(ctx.options));
    console.error("vault writes its options to stderr itself: " + JSON.stringify(ctx.options));
  },
};
`;

async function leakyHttp(name: string): Promise<LeakyHttpUpstream> {
  const upstream = await new LeakyHttpUpstream(name).start();
  cleanup.add(() => upstream.stop());
  return upstream;
}

function project(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-secrets-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "secrets-project", version: "1.0.0", mcpExtensions: { vault: "./vault.mjs" } }));
  writeFileSync(join(dir, "vault.mjs"), VAULT_EXTENSION);
  writeFileSync(join(dir, "mcp-host.config.json"), JSON.stringify(config, null, 2));
  return dir;
}

/** Every tool, the resource and the prompt of each server, called through a real client: what each answered, by name. */
async function everythingAClientGets(base: string, token: string): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const headers = { authorization: `Bearer ${token}` };
  for (const server of ["leaky", "keyed", "bearer", "oauth", "vaulted"]) {
    const { client } = await connectV2(cleanup, new URL(`${base}?only=${server}`), "modern", { headers });
    for (const tool of ["leak", "fail", "throw"])
      answers[`${server}/${tool}`] = await (client as Client).callTool({ name: tool, arguments: {} }).catch((e: Error) => e.message);
    if (server === "leaky") {
      answers["leaky/resource"] = await client.readResource({ uri: "leak://secrets" }).catch((e: Error) => e.message);
      answers["leaky/prompt"] = await client.getPrompt({ name: "leak" }).catch((e: Error) => e.message);
    }
  }
  return answers;
}

/** The text of a tool result's first block. */
function firstText(result: unknown): string {
  return String((result as { content?: Array<{ text?: string }> }).content?.[0]?.text);
}

async function getText(url: string, token: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200, url);
  return response.text();
}

describe("every secret is redacted everywhere (issue 17, class 5)", { timeout: 120_000 }, () => {
  it("keeps every resolved secret and every credential obtained out of logs, answers, reports and check", async () => {
    const as = await startAuthorizationServer({
      clients: { gateway: { secret: SECRETS.OAUTH_CLIENT_SECRET, scopes: ["mcp:read"] } },
      resourceServers: { "mcp-host": SECRETS.INTROSPECTION_SECRET },
    });
    cleanup.add(() => as.close());
    const [keyed, bearer, oauth, vaulted, downVault, downOauth] = await Promise.all(
      ["keyed", "bearer", "oauth", "vaulted", "downvault", "downoauth"].map((name) => leakyHttp(name)),
    );
    downVault.refuseAll();
    downOauth.refuseAll();
    const oauthAuth = { kind: "oauth", clientId: "gateway", clientSecret: "${env:OAUTH_CLIENT_SECRET}", scope: "mcp:read", tokenUrl: as.tokenEndpoint };
    const vaultAuth = { kind: "vault", secretId: "${env:STRATEGY_SETTING_SECRET}" };
    const dir = project({
      startupTimeoutMs: 20_000,
      remoteServers: "optional",
      logging: { level: "debug", format: "json" },
      extensions: { options: { vault: { apiKey: "${env:EXTENSION_OPTION_SECRET}" } } },
      auth: {
        introspection: { endpoint: as.introspectionEndpoint, clientId: "mcp-host", clientSecret: "${env:INTROSPECTION_SECRET}" },
        audience: "urn:test:mcp",
        authorizationServers: [as.issuer],
      },
      servers: {
        leaky: { command: process.execPath, args: [LEAKY, "--token", "${env:ARG_SECRET}"], env: { LEAKY_TOKEN: "${env:ENV_SECRET}" } },
        dead: { command: process.execPath, args: [LEAKY, "--die", "--password=${env:DEAD_ARG_SECRET}"] },
        keyed: { url: keyed.url, headers: { "X-API-Key": "${env:HEADER_SECRET}" } },
        bearer: { url: bearer.url, auth: { kind: "bearer", token: "${env:BEARER_SECRET}" } },
        oauth: { url: oauth.url, auth: oauthAuth },
        vaulted: { url: vaulted.url, auth: vaultAuth },
        downvault: { url: downVault.url, auth: vaultAuth },
        downoauth: { url: downOauth.url, auth: oauthAuth },
      },
    });
    const env = { ...SECRETS };

    // At debug: an upstream's stderr lines are logged there, and they must be redacted too.
    const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", dir, "--log-level", "debug"], { env });
    const banner = await cli.line(/^mcp-host is serving /);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(banner)![1]!;
    const base = new URL(url).origin;
    const token = as.issueOpaque({ aud: "urn:test:mcp", scope: "mcp:read", sub: "alice" });
    const answers = await everythingAClientGets(url, token);
    const reports = {
      healthz: await getText(`${base}/healthz`, token),
      toolsets: await getText(`${base}/toolsets`, token),
      overview: await getText(`${base}/_ui/overview`, token),
      explore: await getText(`${base}/_ui/explore?query=${encodeURIComponent("leaky&dead&downvault&downoauth")}`, token),
    };
    await cli.stop("SIGTERM");
    const checkText = await runCli(cleanup, ["check", "--cwd", dir], { env: { ...process.env, ...env } });
    const checkJson = await runCli(cleanup, ["check", "--json", "--cwd", dir], { env: { ...process.env, ...env } });

    // The leaks were really attempted: the upstreams got the credentials and repeated them.
    const accessTokens = as.issuedTokens().filter((t) => t !== token);
    assert.ok(accessTokens.length > 0, "the gateway obtained OAuth access tokens");
    assert.deepEqual(new Set(keyed.seen.map((h) => h["x-api-key"])), new Set([SECRETS.HEADER_SECRET]));
    assert.ok(oauth.seen.some((h) => accessTokens.some((t) => h.authorization === `Bearer ${t}`)));
    assert.ok(vaulted.seen.some((h) => h["x-vault-token"] === STRATEGY_HEADER));
    assert.ok(downVault.refused > 0 && downOauth.refused > 0, "the refusing upstreams were asked");
    assert.match(cli.stderr, /leaky fixture starting: argv/, "the stdio upstream's stderr was logged");
    assert.match(cli.stderr, /vault writes its options to stderr itself/);
    const unavailable = (JSON.parse(reports.toolsets) as { unavailable: Array<{ server: string }> }).unavailable.map((u) => u.server);
    assert.deepEqual(unavailable, ["dead", "downoauth", "downvault"]);
    assert.match(checkText.stdout, /^upstream dead: unavailable/m);

    const outputs: Record<string, string> = {
      "serve stderr": cli.stderr,
      "serve stdout": cli.stdoutLines.join("\n"),
      "tool, resource and prompt answers": JSON.stringify(answers),
      ...reports,
      "check stdout": checkText.stdout,
      "check stderr": checkText.stderr,
      "check --json stdout": checkJson.stdout,
      "check --json stderr": checkJson.stderr,
    };
    const secrets: Record<string, string> = { ...SECRETS, STRATEGY_HEADER, ...Object.fromEntries(as.issuedTokens().map((t, i) => [`issued token ${i}`, t])) };
    const leaks: string[] = [];
    for (const [where, text] of Object.entries(outputs)) {
      for (const [name, secret] of Object.entries(secrets)) {
        const at = text.indexOf(secret);
        if (at >= 0) leaks.push(`${name} in ${where}: …${text.slice(Math.max(0, at - 120), at + secret.length + 40)}…`);
      }
    }
    assert.deepEqual(leaks, []);

    // Redacted where they were, not lost: the answers and lines still say everything else.
    assert.match(firstText(answers["leaky/leak"]), /^argv \["--token","<redacted>"\] env \{.*"LEAKY_TOKEN":"<redacted>"\}$/);
    assert.match(firstText(answers["keyed/fail"]), /"x-api-key":"<redacted>"/);
    assert.match(firstText(answers["vaulted/throw"]), /"x-vault-token":"<redacted>"/);
    // The console is a log line too (component "console"), redacted like every line.
    assert.match(cli.stderr, /"component":"console","msg":"vault writes its options to stderr itself: \{\\"apiKey\\":\\"<redacted>\\"\}"/);
  });
});
