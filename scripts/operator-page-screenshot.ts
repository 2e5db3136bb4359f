// Makes docs/operator-page.png, the screenshot docs/operate.md shows: a demo deployment (the time and text plugins,
// a gateway with one upstream mcp-host up and one down), a little traffic, the selection explorer on only=time,text
// and one tool tried through the form — in Debian's headless Chromium, as the page's tests drive it.
// Run: node --import tsx scripts/operator-page-screenshot.ts   (needs /usr/bin/chromium: scripts/ensure-chromium.mjs)
import timeExtension from "../plugins/time/src/index.js";
import textExtension from "../plugins/text/src/index.js";
import { defineExtension } from "../src/extension/define.js";
import { buildHost } from "../src/host/build-host.js";
import { listenHost } from "../src/http/listen.js";
import { silentLogger } from "../src/logger.js";
import { createObservability } from "../src/observe/observability.js";
import { createGateway } from "../src/upstream/index.js";
import { openPage } from "../test/helpers/browser.js";
import { Cleanup, modernBody, modernHeaders, raw } from "../test/helpers/http-host.js";

const out = new URL("../docs/operator-page.png", import.meta.url);

const docs = defineExtension({
  name: "docs",
  toolsets: [{ name: "docs", title: "Runbooks", instructions: "Search the runbooks before paging anyone." }],
  tools: [
    {
      name: "search_runbooks",
      description: "Finds runbooks by keyword",
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      handler: (args: { query: string }) => ({ content: [{ type: "text", text: `2 runbooks match "${args.query}"` }] }),
    },
  ],
});

const upstreamHost = buildHost([docs], { name: "runbooks", logger: silentLogger });
await upstreamHost.start();
const upstream = await listenHost(upstreamHost, { port: 0, ui: false });

const observability = createObservability({ logger: silentLogger, accessLog: false, auditLog: false, metrics: { defaultMetrics: false } });
const gateway = createGateway({
  servers: { runbooks: { url: upstream.url.href }, tickets: { url: "http://127.0.0.1:9/mcp" } },
  remoteServers: "optional",
  observer: observability.gatewayObserver,
  logger: silentLogger,
  retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
});
const host = buildHost([timeExtension(), textExtension, gateway.extension], {
  name: "platform-tools",
  version: "1.4.0",
  logger: silentLogger,
  observer: observability.hostObserver,
});
await host.start();
const served = await listenHost(host, { port: 0, observability, upstreams: () => gateway.status() });

const call = (query: string, name: string, args: Record<string, unknown>) =>
  raw({
    url: new URL(`${served.url.href}?${query}`),
    method: "POST",
    headers: modernHeaders("tools/call", name),
    body: modernBody("tools/call", { name, arguments: args }),
  });
for (let i = 0; i < 12; i++) await call("only=time", "current_time", { timezone: "Europe/Paris" });
for (let i = 0; i < 5; i++) await call("only=runbooks", "search_runbooks", { query: "disk full" });

// The page's tests' own browser: Debian's Chromium, a fresh profile, the flags that keep it off the network.
const cleanup = new Cleanup();
try {
  const { page } = await openPage(cleanup, new URL("/", served.baseUrl));
  await page.locator("#toolsets table").waitFor();
  await page.fill("#query", "only=time,text");
  await page.click("#explore button");
  await page.locator("#explored-url").waitFor();
  await page.locator('#tool option[value="convert_time"]').waitFor({ state: "attached" });
  await page.selectOption("#tool", "convert_time");
  for (const [field, value] of [
    ["#arg-time", "09:30"],
    ["#arg-source_timezone", "Europe/Paris"],
    ["#arg-target_timezones", '["America/New_York", "Asia/Tokyo"]'],
  ] as const) {
    if ((await page.locator(field).count()) > 0) await page.fill(field, value);
  }
  await page.click("#call");
  await page.locator("#result", { hasText: '"content"' }).waitFor();
  await page.screenshot({ path: out.pathname, fullPage: true });
  console.log(`wrote ${out.pathname}`);
} finally {
  await cleanup.run();
  await served.close();
  await upstream.close();
}
