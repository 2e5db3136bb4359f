// Who the caller is behind a proxy (issue 26 part 2, docs/config.md `http.trustProxy`): with express's semantics,
// through proxy-addr, the caller's address is the socket peer unless that peer is trusted — then the client it
// forwarded for. The address keys the rate bucket and the per-caller shares, rides on every log line of the request
// (access and audit lines alike), and a trusted proxy's X-Forwarded-Proto sets the scheme auth advertises. A header
// from a peer nobody trusts changes nothing. Clients are told apart by their loopback source address (127.0.0.x);
// "the proxy" is whichever of them the test lists.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { afterEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, modernBody, modernHeaders, type RawResponse, serveHost } from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { kit, serveObserved } from "../helpers/observed-host.js";
import { project, refused, removeProjects } from "../config/config-kit.js";

const cleanup = new Cleanup();
afterEach(async () => {
  await cleanup.run();
  await removeProjects();
});

/** One POST from the loopback address `from`, with `headers`, read to its end. */
function post(url: URL, from: string, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: "POST", headers, localAddress: from, agent: false },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: undefined }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A modern tools/list from `from`, saying (when given) that it forwards for `xff`. */
function list(url: URL, from: string, xff?: string, extra: Record<string, string> = {}): Promise<number> {
  const headers = { ...modernHeaders("tools/list"), ...(xff === undefined ? {} : { "x-forwarded-for": xff }), ...extra };
  return post(url, from, headers, modernBody("tools/list")).then((r) => r.status);
}

const RATE = { callerRequestsPerSecond: 1, callerBurst: 2 };

describe("http.trustProxy: who the caller is", { timeout: 60_000 }, () => {
  it("by default believes no header: X-Forwarded-For changes nobody's bucket", async () => {
    const clock = new ManualClock();
    const { url } = await serveHost(cleanup, [kit], { host: { clock }, http: RATE });
    // One peer, three different claims: one bucket (the peer's), burst 2.
    assert.deepEqual(
      [await list(url, "127.0.0.2", "203.0.113.1"), await list(url, "127.0.0.2", "203.0.113.2"), await list(url, "127.0.0.2", "203.0.113.3")],
      [200, 200, 429],
    );
    assert.equal(await list(url, "127.0.0.3"), 200, "another peer has its own bucket");
  });

  it("behind a listed proxy gives each forwarded client its own bucket; a spoof from elsewhere changes nothing", async () => {
    const clock = new ManualClock();
    const { url } = await serveHost(cleanup, [kit], { host: { clock }, http: { ...RATE, trustProxy: ["127.0.0.1"] } });
    // Two clients behind the proxy (127.0.0.1): the first spends its burst, the second still has its own.
    assert.deepEqual(
      [await list(url, "127.0.0.1", "203.0.113.1"), await list(url, "127.0.0.1", "203.0.113.1"), await list(url, "127.0.0.1", "203.0.113.1")],
      [200, 200, 429],
    );
    assert.equal(await list(url, "127.0.0.1", "203.0.113.2"), 200, "the second client behind the proxy has its own bucket");
    // The first client prepends an address of its own choosing: the proxy appended the real one, which is what counts.
    assert.equal(await list(url, "127.0.0.1", "198.51.100.77, 203.0.113.1"), 429, "a prepended spoof does not escape the bucket");
    // A peer the deployment does not trust (127.0.0.5) claims to forward for a fresh address: it is itself.
    assert.deepEqual(
      [await list(url, "127.0.0.5", "198.51.100.1"), await list(url, "127.0.0.5", "198.51.100.2"), await list(url, "127.0.0.5", "198.51.100.3")],
      [200, 200, 429],
    );
    // … and claiming to be a client whose bucket is full does not spend that client's bucket either.
    assert.equal(await list(url, "127.0.0.6", "203.0.113.2"), 200);
    assert.equal(await list(url, "127.0.0.1", "203.0.113.2"), 200, "203.0.113.2's second request: its own bucket was untouched");
  });

  it("reads a hop count, true and the range names as express does", async () => {
    const clock = new ManualClock();
    const cases: Array<[unknown, string, string, string]> = [
      // [trustProxy, X-Forwarded-For, the client whose bucket is spent, another client of the chain]
      [1, "198.51.100.9, 203.0.113.1", "203.0.113.1", "198.51.100.9"],
      [2, "198.51.100.9, 203.0.113.1", "198.51.100.9", "203.0.113.1"],
      [true, "198.51.100.9, 203.0.113.1", "198.51.100.9", "203.0.113.1"],
      [["loopback"], "198.51.100.9, 203.0.113.1", "203.0.113.1", "198.51.100.9"],
      [["127.0.0.0/8", "203.0.113.0/24"], "198.51.100.9, 203.0.113.1", "198.51.100.9", "203.0.113.1"],
    ];
    for (const [trustProxy, xff, spent, other] of cases) {
      const { url } = await serveHost(cleanup, [kit], { host: { clock }, http: { ...RATE, trustProxy: trustProxy as never } });
      await list(url, "127.0.0.2", xff);
      await list(url, "127.0.0.2", xff);
      // The bucket spent is the one of the address trustProxy picks; the chain's other address still has its own.
      assert.equal(await list(url, "127.0.0.2", spent), 429, `${JSON.stringify(trustProxy)}: ${xff} is ${spent}`);
      assert.equal(await list(url, "127.0.0.2", other), 200, `${JSON.stringify(trustProxy)}: ${other} is another caller`);
    }
  });

  it("gives each forwarded client its own share of the sessions", async () => {
    const { url } = await serveHost(cleanup, [kit], { http: { maxSessionsPerCaller: 1, trustProxy: ["127.0.0.1"] } });
    const open = async (xff: string) => (await post(url, "127.0.0.1", { ...LEGACY_POST_HEADERS, "x-forwarded-for": xff }, legacyInitialize())).status;
    assert.deepEqual([await open("203.0.113.1"), await open("203.0.113.1"), await open("203.0.113.2")], [200, 429, 200]);
  });

  it("names the client on the access line and the audit line", async () => {
    const observed = await serveObserved(cleanup, [kit], { http: { trustProxy: ["127.0.0.1"] } });
    const headers = { ...modernHeaders("tools/call", "echo"), "x-forwarded-for": "203.0.113.7" };
    const answer = await post(observed.url, "127.0.0.1", headers, modernBody("tools/call", { name: "echo", arguments: { text: "hi" } }));
    assert.equal(answer.status, 200);
    const access = await observed.waitFor((l) => typeof l.msg === "string" && l.msg.startsWith("POST /mcp tools/call 200"));
    const audit = await observed.waitFor((l) => typeof l.msg === "string" && l.msg.startsWith("tool call echo"));
    assert.equal(access.client, "203.0.113.7");
    assert.equal(audit.client, "203.0.113.7");
    // Straight from a peer nobody listed, the claim is ignored.
    await post(observed.url, "127.0.0.4", headers, modernBody("tools/call", { name: "echo", arguments: { text: "hi" } }, 2));
    const direct = await observed.waitFor((l) => typeof l.msg === "string" && l.msg.startsWith("tool call echo") && l.client !== "203.0.113.7");
    assert.equal(direct.client, "127.0.0.4");
  });

  it("takes the advertised scheme from X-Forwarded-Proto or Forwarded only from a trusted proxy", async () => {
    const auth = {
      issuer: "https://issuer.example",
      audience: "https://mcp.example/mcp",
      hs256Secret: "a-test-secret-of-at-least-32-bytes!",
      algorithms: ["HS256"],
    };
    const { url } = await serveHost(cleanup, [kit], { http: { auth: auth as never, trustProxy: ["127.0.0.1"] } });
    const metadataOf = async (from: string, extra: Record<string, string>) => {
      const answer = await post(url, from, { ...modernHeaders("tools/list"), ...extra }, modernBody("tools/list"));
      assert.equal(answer.status, 401);
      return /resource_metadata="([^"]+)"/.exec(String(answer.headers["www-authenticate"]))![1];
    };
    const path = `://127.0.0.1:${url.port}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(await metadataOf("127.0.0.1", { "x-forwarded-proto": "https" }), `https${path}`);
    assert.equal(await metadataOf("127.0.0.1", { forwarded: "for=203.0.113.7;proto=https" }), `https${path}`);
    assert.equal(await metadataOf("127.0.0.2", { "x-forwarded-proto": "https" }), `http${path}`, "an untrusted peer's header is ignored");
    assert.equal(await metadataOf("127.0.0.1", {}), `http${path}`);
  });
});

describe("http.trustProxy in the config file", () => {
  it("takes false, true, a hop count or a list, and refuses an entry proxy-addr cannot read", async () => {
    for (const [yaml, expected] of [
      ["{}", false],
      ["{ trustProxy: true }", true],
      ["{ trustProxy: 2 }", 2],
      ["{ trustProxy: [loopback, 10.0.0.0/8, '::1'] }", ["loopback", "10.0.0.0/8", "::1"]],
    ] as const) {
      const cwd = await project({ ".mcp-hostrc.yaml": `http: ${yaml}\n` });
      assert.deepEqual((await loadConfig({ cwd, env: {} })).config.http.trustProxy, expected, yaml);
    }
    const cwd = await project({ ".mcp-hostrc.yaml": "http: { trustProxy: [loopback, 10.0.0.0/33, nginx] }\n" });
    const r = await refused(loadConfig({ cwd, env: {} }), [
      ["CONFIG_INVALID", "http.trustProxy[1]"],
      ["CONFIG_INVALID", "http.trustProxy[2]"],
    ]);
    assert.equal(
      r.problems[0]!.message,
      '"10.0.0.0/33" is not an address, a CIDR or one of loopback, linklocal, uniquelocal; write e.g. "10.0.0.0/8" or "loopback"',
    );
  });
});
