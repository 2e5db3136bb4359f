// The operator page (docs/design.md §18) in a real headless Chromium: it loads with no console error and no request
// anywhere but the host, shows the toolsets with their tools and the extensions with their status and errors,
// explores a selection (what the URL serves, its instructions, its unknown names), and runs a tool through a form
// generated from the tool's input schema — through the real MCP endpoint, as the audit line proves. With auth on,
// its data is refused without a token and shown with one; `ui: false` turns it off.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { defineExtension } from "../../../src/extension/define.js";
import { AUDIENCE, authorizationServerFor, bearer } from "../../helpers/auth-host.js";
import { openPage } from "../../helpers/browser.js";
import { Cleanup, raw } from "../../helpers/http-host.js";
import { broken, kit, serveObserved } from "../../helpers/observed-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const units = defineExtension({
  name: "units",
  toolsets: [{ name: "units", title: "Units", default: false }],
  tools: [
    {
      name: "convert",
      description: "Converts a length",
      inputSchema: {
        type: "object",
        properties: {
          value: { type: "number", description: "how many" },
          unit: { type: "string", enum: ["m", "km"] },
          exact: { type: "boolean" },
        },
        required: ["value", "unit"],
      },
      handler: (args: { value: number; unit: string; exact?: boolean }) => ({
        content: [{ type: "text", text: `${args.unit === "km" ? args.value * 1000 : args.value} m${args.exact ? " exactly" : ""}` }],
      }),
    },
  ],
});

describe("the operator page", { timeout: 120_000 }, () => {
  it("loads offline with no console error, shows toolsets and extensions, explores a selection and runs a tool through the form", async () => {
    const served = await serveObserved(cleanup, [kit, units, broken]);
    const { page, errors, foreign } = await openPage(cleanup, new URL("/", served.baseUrl));

    await page.locator("#toolsets table").waitFor();
    const toolsets = await page.locator("#toolsets tr td:first-child b").allTextContents();
    assert.deepEqual(toolsets, ["broken", "kit", "units"]);
    assert.deepEqual(await page.locator("#toolsets tr", { hasText: "kit" }).first().locator(".tools code").allTextContents(), [
      "boom",
      "echo",
      "login",
      "refuse",
      "sleepy",
    ]);
    const brokenRow = page.locator("#extensions tr", { hasText: "broken" });
    assert.equal(await brokenRow.locator(".badge").textContent(), "failed");
    assert.match((await brokenRow.locator("td.error").textContent()) ?? "", /broken on purpose/);

    await page.fill("#query", "only=units,nosuch");
    await page.click("#explore button");
    await page.locator("#explored-url").waitFor();
    assert.equal(await page.locator("#explored-url").textContent(), "/mcp?only=units,nosuch");
    assert.equal(await page.locator("#explored-active").textContent(), "units");
    assert.equal(await page.locator("#explored-unknown").textContent(), "nosuch");
    assert.deepEqual(await page.locator("#explored-tools code").allTextContents(), ["convert", "list_server_toolsets"]);
    assert.equal(await page.locator("#explored-modifiers").textContent(), "none");

    // The form is generated from convert's input schema: a number, an enum, a boolean.
    await page.locator("#arg-value").waitFor();
    await page.selectOption("#tool", "convert");
    await page.fill("#arg-value", "2.5");
    await page.selectOption("#arg-unit", '"km"');
    await page.check("#arg-exact");
    await page.click("#call");
    await page.locator("#result", { hasText: "2500 m exactly" }).waitFor();
    const shown = JSON.parse((await page.locator("#result").textContent()) ?? "{}") as { content: unknown };
    assert.deepEqual(shown.content, [{ type: "text", text: "2500 m exactly" }]);
    const audit = await served.waitFor((l) => l.component === "audit" && l.tool === "convert");
    assert.deepEqual([audit.outcome, audit.era, audit.toolset], ["ok", "modern", "units"], "the call went through the MCP endpoint");
    const access = await served.waitFor((l) => l.component === "access" && l.rpcMethod === "tools/call");
    assert.deepEqual([access.path, access.selection], ["/mcp", "units"]);

    // The selection's modifiers (issue 20) are shown as the host applied them.
    await page.fill("#query", "only=units&readonly&search");
    await page.click("#explore button");
    await page.locator("#explored-url", { hasText: "readonly" }).waitFor();
    assert.equal(await page.locator("#explored-modifiers").textContent(), "readonly; search over 1 tool (listed: find_tools, call_tool)");
    assert.deepEqual(await page.locator("#explored-tools code").allTextContents(), ["call_tool", "find_tools"]);

    // The traffic panel draws the host's own counters.
    await page.reload();
    await page.locator("#request-total").waitFor();
    assert.ok(Number(await page.locator("#request-total").textContent()) >= 5);
    // The p95 line has a point for each 10 s slot that had timed requests — an empty slot is a gap, not a latency of
    // 0 drawn along the bottom edge — and every point is inside the chart.
    // (Run in the page, as source text: the test itself is compiled without the DOM's types.)
    const timedSlots = await page.evaluate<number>(`(async () => {
      const config = JSON.parse(document.getElementById("config").textContent);
      const overview = await (await fetch(config.api + "/overview")).json();
      return overview.rates.filter((slot) => slot.p95Ms > 0).length;
    })()`);
    const drawn = await page.evaluate<number[][]>(`[...document.querySelectorAll("#traffic-chart .p95")].flatMap((shape) =>
      shape.tagName === "circle"
        ? [[Number(shape.getAttribute("cx")), Number(shape.getAttribute("cy"))]]
        : shape.getAttribute("points").split(" ").map((point) => point.split(",").map(Number)))`);
    assert.ok(timedSlots >= 1);
    // (The page drew before this look at the data, which is a request too: a new slot may have begun in between.)
    assert.ok(drawn.length >= 1 && Math.abs(drawn.length - timedSlots) <= 1, `${drawn.length} points for ${timedSlots} slots with requests`);
    for (const [x, y] of drawn) assert.ok(x! > 0 && x! < 600 && y! > 0 && y! < 120, `the point ${x},${y} is inside the 600×120 chart`);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, [], "the page fetched nothing from anywhere else");
  });

  it("with auth on, refuses its data without a token and shows the caller's view with one", async () => {
    const as = await authorizationServerFor(cleanup);
    const served = await serveObserved(cleanup, [kit, units], {
      http: { auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri, toolsetScopes: { units: ["mcp:units"] } } },
    });
    const overview = new URL("/_ui/overview", served.baseUrl);
    assert.equal((await raw({ url: overview })).status, 401);
    assert.equal((await raw({ url: new URL("/_ui/explore?q=only%3Dkit", served.baseUrl) })).status, 401);

    const { page, errors } = await openPage(cleanup, new URL("/", served.baseUrl));
    await page.locator("#gate-message").waitFor();
    assert.match((await page.locator("#gate-message").textContent()) ?? "", /paste an access token/);
    assert.equal(await page.locator("#app").isHidden(), true);
    assert.deepEqual(errors, [], "asking for a token is not an error");

    const token = await as.mint({ aud: AUDIENCE, scope: "mcp:read" });
    assert.equal((await raw({ url: overview, headers: bearer(token) })).status, 200);
    await page.fill("#token", token);
    await page.click("#gate-form button");
    await page.locator("#toolsets table").waitFor();
    // The token does not reach `units`: the caller's view leaves it out.
    assert.deepEqual(await page.locator("#toolsets tr td:first-child b").allTextContents(), ["kit"]);
    await page.locator('#tool option[value="echo"]').waitFor({ state: "attached" });
    await page.selectOption("#tool", "echo");
    await page.fill("#arg-text", "with a token");
    await page.click("#call");
    await page.locator("#result", { hasText: "with a token" }).waitFor();
  });

  it("cannot be framed by another page, and says so on the page and its data (issue 17 class 9)", async () => {
    const served = await serveObserved(cleanup, [kit], { http: { ui: { path: "/ops" } } });
    for (const path of ["/ops", "/ops/_ui/overview", "/ops/_ui/explore?q=only=kit"]) {
      const answer = await raw({ url: new URL(path, served.baseUrl) });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers["x-frame-options"], "DENY", path);
      assert.equal(answer.headers["x-content-type-options"], "nosniff", path);
    }
    const policy = String((await raw({ url: new URL("/ops", served.baseUrl) })).headers["content-security-policy"] ?? "");
    assert.match(policy, /frame-ancestors 'none'/);
    assert.match(policy, /default-src 'none'/);
    // A page of another origin that frames it (as a click-jacking page would) gets nothing drawn.
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><iframe id="f" src="${new URL("/ops", served.baseUrl).href}"></iframe>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    cleanup.add(() => new Promise<void>((resolve) => attacker.close(() => resolve())));
    const { page } = await openPage(cleanup, new URL(`http://localhost:${(attacker.address() as AddressInfo).port}/`));
    await page.locator("#f").waitFor({ state: "attached" });
    const framed = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(framed);
    await framed.waitForLoadState().catch(() => {});
    assert.equal(await framed.locator("#toolsets").count(), 0, "the operator page was not drawn inside another page");
  });

  it("is not served with ui: false, and moves with ui.path", async () => {
    const off = await serveObserved(cleanup, [kit], { http: { ui: false } });
    assert.equal((await raw({ url: new URL("/", off.baseUrl) })).status, 404);
    assert.equal((await raw({ url: new URL("/_ui/overview", off.baseUrl) })).status, 404);
    const moved = await serveObserved(cleanup, [kit], { http: { ui: { path: "/ops" } } });
    const page = await raw({ url: new URL("/ops", moved.baseUrl) });
    assert.equal(page.status, 200);
    assert.match(page.text, /"api":"\/ops\/_ui"/);
    assert.equal((await raw({ url: new URL("/ops/_ui/overview", moved.baseUrl) })).json.service, "test-host");
    assert.equal((await raw({ url: new URL("/", moved.baseUrl) })).status, 404);
  });
});
