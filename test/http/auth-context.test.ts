// `ctx.auth` on a served host (docs/design.md §9; issue 9 item 7): tool handlers get the verified caller — subject,
// client, scopes, expiry, claims — in both eras and from both SDK generations, and never the raw token: `token` is
// empty in ctx.auth and in the SDK's own ctx (no token passthrough). The token is in no response — refusals,
// errors, /healthz, /toolsets, tool results — and (the after hook) in no log line.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { authTestFile, authExtensions, bearer, type Runs } from "../helpers/auth-host.js";
import {
  callText,
  connectV1,
  connectV2,
  LEGACY_POST_HEADERS,
  legacyInitialize,
  raw,
  type ToolClient,
  legacyBody,
  modernBody,
  modernHeaders,
} from "../helpers/http-host.js";

const file = authTestFile();
const { cleanup, watch } = file;

/** authExtensions plus a tool that shows what the raw SDK context carries, and one that fails. */
function withProbe(runs: Runs): McpExtension[] {
  return [
    ...authExtensions(runs),
    {
      name: "probe",
      toolsets: [{ name: "probe", default: false }],
      tools: [
        { name: "sdk_auth", handler: (_args, ctx) => ({ content: [{ type: "text", text: JSON.stringify(ctx.mcp.http?.authInfo ?? null) }] }) },
        {
          name: "fail",
          handler: (_args, ctx) => {
            throw new Error(`failing for ${String(ctx.auth?.extra?.subject)}`);
          },
        },
      ],
    },
  ];
}

type Kind = "v2 modern" | "v2 legacy" | "v1";

async function connect(kind: Kind, url: URL, headers: Record<string, string>): Promise<ToolClient> {
  if (kind === "v1") return (await connectV1(cleanup, url, { headers })).client as unknown as ToolClient;
  return (await connectV2(cleanup, url, kind === "v2 modern" ? "modern" : "legacy", { headers })).client;
}

describe("ctx.auth", { timeout: 60_000 }, () => {
  for (const kind of ["v2 modern", "v2 legacy", "v1"] as const) {
    it(`reaches tool handlers as the verified caller, without the raw token (${kind})`, async () => {
      const runs: Runs = [];
      const served = await file.serve({ extensions: withProbe(runs), runs });
      const now = Math.floor(Date.now() / 1000);
      const token = await served.token({ sub: "alice", client_id: "notes-app", scope: "mcp:read", exp: now + 600, tenant: "acme" });
      const client = await connect(kind, served.at("notes&probe"), bearer(token));
      const whoami = await callText(client, "whoami");
      assert.equal(whoami.includes(token), false);
      const seen = JSON.parse(whoami) as { auth: Record<string, unknown>; selection: unknown; era: string };
      const claims = seen.auth.extra as { subject: string; claims: Record<string, unknown> };
      assert.deepEqual(
        { token: seen.auth.token, clientId: seen.auth.clientId, scopes: seen.auth.scopes, expiresAt: seen.auth.expiresAt, subject: claims.subject },
        { token: "", clientId: "notes-app", scopes: ["mcp:read"], expiresAt: now + 600, subject: "alice" },
      );
      assert.deepEqual(
        { sub: claims.claims.sub, tenant: claims.claims.tenant, iss: claims.claims.iss, aud: claims.claims.aud },
        { sub: "alice", tenant: "acme", iss: file.as.issuer, aud: "urn:test:mcp" },
      );
      assert.deepEqual(seen.selection, { active: ["notes", "probe"], unknown: [], permitted: ["extra", "notes", "probe"] });
      assert.equal(seen.era, kind === "v2 modern" ? "modern" : "legacy");
      const sdk = await callText(client, "sdk_auth");
      assert.equal(sdk.includes(token), false, "the SDK's own context does not carry the token either");
      if (sdk !== "null") assert.equal((JSON.parse(sdk) as { token: string }).token, "");
      assert.deepEqual(runs, ["notes/whoami alice"]);
    });
  }

  it("never puts the token in a response: refusals, tool errors, /healthz, /toolsets", async () => {
    const served = await file.serve({ extensions: withProbe([]) });
    const good = await served.token({ sub: "bob" });
    const wrongAudience = await served.token({ aud: "urn:other" });
    const expired = await served.token({ exp: Math.floor(Date.now() / 1000) - 3600 });
    const tokens = [good, wrongAudience, expired, watch.track("opaque-junk-token-value")];
    const texts: string[] = [];
    const mcp = served.at("notes&probe");
    for (const token of tokens) {
      for (const request of [
        { url: mcp, method: "POST", headers: { ...LEGACY_POST_HEADERS, ...bearer(token) }, body: legacyInitialize() },
        {
          url: mcp,
          method: "POST",
          headers: { ...modernHeaders("tools/call", "fail"), ...bearer(token) },
          body: modernBody("tools/call", { name: "fail", arguments: {} }),
        },
        {
          url: mcp,
          method: "POST",
          headers: { ...modernHeaders("tools/call", "nosuch"), ...bearer(token) },
          body: modernBody("tools/call", { name: "nosuch", arguments: {} }),
        },
        { url: mcp, method: "POST", headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": "x", ...bearer(token) }, body: legacyBody("tools/list") },
        { url: new URL("/healthz", served.baseUrl), headers: bearer(token) },
        { url: new URL("/toolsets?notes", served.baseUrl), headers: bearer(token) },
        { url: new URL(`/mcp?access_token=${token}`, served.baseUrl), method: "POST", headers: LEGACY_POST_HEADERS, body: legacyInitialize() },
      ]) {
        const response = await raw(request);
        texts.push(`${response.status} ${JSON.stringify(response.headers)} ${response.text}`);
      }
    }
    const failed = texts.find((t) => t.includes("failing for bob"));
    assert.ok(failed, "the failing tool answered (so its error text was checked)");
    for (const token of tokens) {
      const leaked = texts.find((t) => t.includes(token) || t.includes(token.split(".")[2] ?? token));
      assert.equal(leaked, undefined, `a response carries a token: ${leaked}`);
    }
  });
});
