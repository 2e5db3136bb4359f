// docs/serving.md "Mount it in an app of your own" (issue 27): `createHostApp(host, options).app` mounted under a
// prefix of an existing express app serves MCP, `/toolsets`, the operator page and `/metrics` under that prefix, and
// with `auth` on every one of them is guarded there — a request without a token gets a 401 whose metadata URL,
// fetched from the outer app, describes the prefixed resource — while the outer app's own routes stay its own.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { buildHost } from "../../src/host/build-host.js";
import { createHostApp } from "../../src/http/app.js";
import { protectedResourceMetadata } from "../../src/http/auth/index.js";
import { silentLogger } from "../../src/logger.js";
import { createObservability } from "../../src/observe/observability.js";
import { AUDIENCE, authorizationServerFor, bearer } from "../helpers/auth-host.js";
import { Cleanup, callText, connectV2, raw } from "../helpers/http-host.js";
import { textTool } from "../helpers/kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("the host mounted under a prefix of an existing express app", { timeout: 60_000 }, () => {
  it("serves MCP, /toolsets, the operator page and /metrics under the prefix, each behind the token check", async () => {
    const as = await authorizationServerFor(cleanup);
    const host = buildHost([{ name: "clock", toolsets: [{ name: "clock" }], tools: [textTool("tick")] }], { name: "mounted", logger: silentLogger });
    await host.start();
    cleanup.add(() => host.stop());
    const observability = createObservability({ logger: silentLogger, metrics: { defaultMetrics: false } });
    const app = express();
    app.get("/health", (_req, res) => void res.json({ app: "mine" }));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.add(() => new Promise((resolve) => server.close(resolve)));
    const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const at = (path: string) => new URL(path, base);
    // The sample of docs/serving.md, with the fixture authorization server's URLs and this app's origin.
    const mcp = createHostApp(host, {
      observability,
      auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri, requiredScopes: ["mcp:read"], publicBaseUrl: at("/ai").href },
      metrics: { scopes: ["mcp:metrics"] },
      ui: { path: "/" },
    });
    cleanup.add(() => mcp.close());
    // RFC 9728 puts a resource's metadata at the root of its origin: /.well-known/oauth-protected-resource/ai/mcp.
    app.use(protectedResourceMetadata({ authorizationServers: [as.issuer], resourcePath: "/ai/mcp", scopesSupported: ["mcp:read"] }));
    app.use("/ai", mcp.app);

    const reader = await as.mint({ scope: "mcp:read" });
    const scraper = await as.mint({ scope: "mcp:read mcp:metrics" });

    // The app's own route is untouched; the host answers only under /ai.
    assert.deepEqual(JSON.parse((await raw({ url: at("/health") })).text), { app: "mine" });
    assert.equal((await raw({ url: at("/mcp") })).status, 404);

    // MCP under the prefix: refused without a token, its challenge pointing at metadata the outer app serves.
    const refused = await raw({ url: at("/ai/mcp?only=clock"), method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(refused.status, 401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(String(refused.headers["www-authenticate"]))?.[1];
    assert.ok(metadataUrl, String(refused.headers["www-authenticate"]));
    const metadata = await raw({ url: new URL(metadataUrl) });
    assert.equal(metadata.status, 200, `${metadataUrl}: ${metadata.status}`);
    assert.equal((JSON.parse(metadata.text) as { resource: string }).resource, at("/ai/mcp").href);

    const { client } = await connectV2(cleanup, at("/ai/mcp?only=clock"), "modern", { headers: bearer(reader) });
    assert.equal(await callText(client, "tick"), "tick ok");

    // /toolsets under the prefix.
    assert.equal((await raw({ url: at("/ai/toolsets") })).status, 401);
    const toolsets = await raw({ url: at("/ai/toolsets?only=clock"), headers: bearer(reader) });
    assert.equal(toolsets.status, 200);
    assert.deepEqual((JSON.parse(toolsets.text) as { tools: string[] }).tools, ["list_server_toolsets", "tick"]);

    // The operator page: its HTML under the prefix, asking for its data and MCP under the prefix too.
    const page = await raw({ url: at("/ai/") });
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    const config = JSON.parse(/<script id="config" type="application\/json">(.*?)<\/script>/s.exec(page.text)?.[1] ?? "null") as {
      api: string;
      mcpPath: string;
    };
    assert.deepEqual([config.api, config.mcpPath], ["/ai/_ui", "/ai/mcp"]);
    assert.equal((await raw({ url: at(`${config.api}/overview`) })).status, 401);
    const overview = await raw({ url: at(`${config.api}/overview`), headers: bearer(reader) });
    assert.equal(overview.status, 200);
    assert.deepEqual(
      (JSON.parse(overview.text) as { toolsets: Array<{ name: string }> }).toolsets.map((t) => t.name),
      ["clock"],
    );

    // /metrics under the prefix: a token with metrics.scopes, nothing without.
    assert.equal((await raw({ url: at("/ai/metrics") })).status, 401);
    assert.equal((await raw({ url: at("/ai/metrics"), headers: bearer(reader) })).status, 403);
    const scrape = await raw({ url: at("/ai/metrics"), headers: bearer(scraper) });
    assert.equal(scrape.status, 200);
    assert.match(scrape.text, /^mcp_host_http_requests_total\{route="mcp",era="modern",rpc_method="tools\/call",status="200"\} 1$/m);
  });
});
