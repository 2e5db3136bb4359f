// /metrics (docs/design.md §18): the Prometheus text format with prom-client; HTTP requests by route, era, JSON-RPC
// method and status; tool calls by toolset, tool and outcome; build cache hits and misses; live sessions; open
// streams; extensions by status. Off unless asked for; label values bounded (a made-up tool is `other`); with auth
// on, a token with the configured scopes, or a loopback port of its own; a broken gauge never breaks a scrape.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { buildHost } from "../../../src/host/build-host.js";
import { createHostApp } from "../../../src/http/app.js";
import { silentLogger } from "../../../src/logger.js";
import { createObservability } from "../../../src/observe/observability.js";
import { AUDIENCE, authorizationServerFor, bearer } from "../../helpers/auth-host.js";
import { Cleanup, connectV1, raw, watchLegacyStreams, modernBody, modernHeaders } from "../../helpers/http-host.js";
import { broken, kit, serveObserved } from "../../helpers/observed-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function call(url: URL, name: string, args: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return raw({ url, method: "POST", headers: { ...modernHeaders("tools/call", name), ...headers }, body: modernBody("tools/call", { name, arguments: args }) });
}

/** The samples of a scrape whose name starts with `prefix`, as `name{labels} value` lines. */
function samples(text: string, prefix: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(prefix))
    .sort();
}

describe("/metrics", { timeout: 60_000 }, () => {
  it("counts a short session: requests, tool calls by outcome, builds, sessions, streams and extensions", async () => {
    const streams = watchLegacyStreams();
    const served = await serveObserved(cleanup, [kit, broken], {
      observe: { metrics: { defaultMetrics: false } },
      host: { serverFactory: streams.serverFactory },
    });
    const url = served.at("only=kit");
    await call(url, "echo", { text: "one" });
    await call(url, "echo", { text: "two" });
    await call(url, "refuse");
    await call(url, "made_up_tool");
    await connectV1(cleanup, url);
    await streams.opened(1);

    const scrape = await raw({ url: new URL("/metrics", served.baseUrl) });
    assert.equal(scrape.status, 200);
    assert.match(String(scrape.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
    assert.deepEqual(samples(scrape.text, "mcp_host_tool_calls_total"), [
      'mcp_host_tool_calls_total{toolset="kit",tool="echo",outcome="ok"} 2',
      'mcp_host_tool_calls_total{toolset="kit",tool="refuse",outcome="isError"} 1',
      'mcp_host_tool_calls_total{toolset="other",tool="other",outcome="refused"} 1',
    ]);
    assert.deepEqual(samples(scrape.text, "mcp_host_tool_call_duration_seconds_count"), [
      'mcp_host_tool_call_duration_seconds_count{toolset="kit",tool="echo"} 2',
      'mcp_host_tool_call_duration_seconds_count{toolset="kit",tool="refuse"} 1',
      'mcp_host_tool_call_duration_seconds_count{toolset="other",tool="other"} 1',
    ]);
    assert.ok(
      samples(scrape.text, "mcp_host_http_requests_total").includes(
        'mcp_host_http_requests_total{route="mcp",era="modern",rpc_method="tools/call",status="200"} 4',
      ),
      scrape.text,
    );
    assert.ok(
      samples(scrape.text, "mcp_host_http_requests_total").includes(
        'mcp_host_http_requests_total{route="mcp",era="legacy",rpc_method="initialize",status="200"} 1',
      ),
    );
    assert.deepEqual(samples(scrape.text, "mcp_host_legacy_sessions"), ["mcp_host_legacy_sessions 1"]);
    assert.deepEqual(samples(scrape.text, "mcp_host_listen_streams"), ["mcp_host_listen_streams 1"]);
    assert.deepEqual(samples(scrape.text, "mcp_host_extensions{"), [
      'mcp_host_extensions{status="dormant"} 0',
      'mcp_host_extensions{status="failed"} 1',
      'mcp_host_extensions{status="pending"} 0',
      'mcp_host_extensions{status="ready"} 1',
    ]);
    // One selection: built once, then served from the cache.
    assert.deepEqual(samples(scrape.text, "mcp_host_build_cache_misses_total"), ["mcp_host_build_cache_misses_total 1"]);
    assert.ok(Number(samples(scrape.text, "mcp_host_build_cache_hits_total")[0]!.split(" ")[1]) >= 4);
    assert.deepEqual(samples(scrape.text, "mcp_host_build_duration_seconds_count"), ["mcp_host_build_duration_seconds_count 1"]);
    const families = scrape.text
      .split("\n")
      .filter((l) => l.startsWith("# TYPE"))
      .map((l) => l.split(" ").slice(2).join(" "));
    assert.deepEqual(families, [
      "mcp_host_http_requests_total counter",
      "mcp_host_http_request_duration_seconds histogram",
      "mcp_host_tool_calls_total counter",
      "mcp_host_tool_call_duration_seconds histogram",
      "mcp_host_build_cache_hits_total counter",
      "mcp_host_build_cache_misses_total counter",
      "mcp_host_build_duration_seconds histogram",
      "mcp_host_upstream_call_duration_seconds histogram",
      "mcp_host_legacy_sessions gauge",
      "mcp_host_listen_streams gauge",
      "mcp_host_held_entries gauge",
      "mcp_host_extensions gauge",
      "mcp_host_tasks gauge",
      "mcp_host_upstream_up gauge",
    ]);
  });

  it("is off unless asked for", async () => {
    const served = await serveObserved(cleanup, [kit]);
    assert.equal((await raw({ url: new URL("/metrics", served.baseUrl) })).status, 404);
  });

  it("adds prom-client's process metrics, prefixed, unless told not to", async () => {
    const served = await serveObserved(cleanup, [kit], { observe: { metrics: true } });
    const scrape = await raw({ url: new URL("/metrics", served.baseUrl) });
    assert.match(scrape.text, /^mcp_host_process_cpu_user_seconds_total \d/m);
    assert.match(scrape.text, /^mcp_host_nodejs_eventloop_lag_seconds /m);
  });

  it("with auth on, needs a token carrying metrics.scopes", async () => {
    const as = await authorizationServerFor(cleanup);
    const served = await serveObserved(cleanup, [kit], {
      observe: { metrics: { defaultMetrics: false } },
      http: { auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri }, metrics: { scopes: ["mcp:metrics"] } },
    });
    const at = new URL("/metrics", served.baseUrl);
    const none = await raw({ url: at });
    assert.equal(none.status, 401);
    const weak = await raw({ url: at, headers: bearer(await as.mint({ aud: AUDIENCE, scope: "mcp:read" })) });
    assert.equal(weak.status, 403);
    assert.match(String(weak.headers["www-authenticate"]), /error="insufficient_scope", .*scope="mcp:metrics"/);
    const good = await raw({ url: at, headers: bearer(await as.mint({ aud: AUDIENCE, scope: "mcp:read mcp:metrics" })) });
    assert.equal(good.status, 200);
    assert.match(good.text, /^# TYPE mcp_host_tool_calls_total counter$/m);
  });

  it("refuses metrics beside auth with neither scopes nor a port of its own", async () => {
    const host = buildHost([kit], { name: "t", logger: silentLogger });
    await host.start();
    cleanup.add(() => host.stop());
    const observability = createObservability({ logger: silentLogger, metrics: true });
    assert.throws(
      () => createHostApp(host, { observability, auth: { issuer: "https://id.example.com/", audience: "a", jwksUri: "https://id.example.com/jwks" } }),
      (error: { code?: string; message?: string }) =>
        error.code === "AUTH_CONFIG_INVALID" && /metrics\.scopes is empty and metrics\.port is not set/.test(error.message ?? ""),
    );
  });

  it("serves on a loopback port of its own with metrics.port, and not on the MCP port", async () => {
    const served = await serveObserved(cleanup, [kit], { observe: { metrics: { defaultMetrics: false } }, http: { metrics: { port: 0 } } });
    await call(served.at("only=kit"), "echo", { text: "x" });
    const own = served.served.metrics!.url;
    assert.equal(own.hostname, "127.0.0.1");
    assert.notEqual(own.port, served.baseUrl.port);
    const scrape = await raw({ url: own });
    assert.equal(scrape.status, 200);
    assert.match(scrape.text, /^mcp_host_tool_calls_total\{toolset="kit",tool="echo",outcome="ok"\} 1$/m);
    assert.equal((await raw({ url: new URL("/metrics", served.baseUrl) })).status, 404);
    assert.equal((await raw({ url: new URL("/other", own) })).status, 404);
  });

  it("checks the Host on its own port as the MCP port does: a name that rebinds to loopback reads nothing", async () => {
    const served = await serveObserved(cleanup, [kit], {
      observe: { metrics: { defaultMetrics: false } },
      http: { metrics: { port: 0 }, allowedHosts: ["mcp.example.com"] },
    });
    const own = served.served.metrics!.url;
    const scrape = (host: string) => raw({ url: own, headers: { host } });
    for (const host of ["evil.example.com", `evil.example.com:${own.port}`, "127.0.0.1.nip.io", "localhost.evil.example", "[::2]", "10.0.0.1"]) {
      const answer = await scrape(host);
      assert.equal(answer.status, 403, `Host "${host}": ${answer.status}`);
      assert.doesNotMatch(answer.text, /mcp_host_/, `Host "${host}" read no metric`);
    }
    for (const host of [`127.0.0.1:${own.port}`, `localhost:${own.port}`, `[::1]:${own.port}`, "mcp.example.com"]) {
      assert.equal((await scrape(host)).status, 200, `Host "${host}" is served`);
    }
  });

  it("answers a scrape and every request although a gauge's source throws", async () => {
    const served = await serveObserved(cleanup, [kit], { observe: { metrics: { defaultMetrics: false } } });
    served.observability.watch({
      legacySessions: () => {
        throw new Error("source down");
      },
    });
    assert.equal((await call(served.at("only=kit"), "echo", { text: "x" })).status, 200);
    const scrape = await raw({ url: new URL("/metrics", served.baseUrl) });
    assert.equal(scrape.status, 200);
    assert.deepEqual(samples(scrape.text, "mcp_host_legacy_sessions"), ["mcp_host_legacy_sessions 0"]);
  });
});
