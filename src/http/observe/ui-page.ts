/**
 * The operator page (docs/design.md §18): one self-contained HTML document — styles and script inline, no font, no CDN,
 * no request to anywhere but this host — so it works on a machine with no network. The shell holds no data; the
 * script reads the host's overview (`_ui/overview`), explores selections (`_ui/explore`), and tries tools through the
 * real MCP endpoint with 2026-07-28 requests, exactly as a client would. With auth on it asks for a token first and
 * sends it as `Authorization: Bearer` (kept for the tab only, in sessionStorage).
 */
import { createHash } from "node:crypto";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

/** The revision the page's requests speak; the SDK's own `_meta` keys are written into the script where it is made. */
const MODERN = "2026-07-28";

/** What the page is told when it is served. */
export interface PageConfig {
  /** The service's name, for the title. */
  service: string;
  /** Where the page's data is read: `{api}/overview`, `{api}/explore`. */
  api: string;
  /** The MCP endpoint's path. */
  mcpPath: string;
  /** Whether requests need a bearer token. */
  auth: boolean;
}

const STYLE = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--muted:#667085;--line:#e4e7ec;--accent:#2f6fdf;--ok:#12805c;--warn:#b54708;--bad:#c01048}
[hidden]{display:none!important}*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink)}
header{display:flex;align-items:center;gap:12px;padding:14px 24px;background:var(--ink);color:#fff}
header h1{font-size:17px;margin:0;font-weight:600}header .sub{color:#c3c9d5;font-size:13px}
#status{margin-left:auto;font-size:13px}main{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px;padding:16px 24px}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 16px;min-width:0}
section.wide{grid-column:1/-1}h2{font-size:14px;margin:0 0 10px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:500}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f2f4f7;border-radius:6px;padding:10px;overflow:auto;max-height:340px;margin:8px 0 0;white-space:pre-wrap;word-break:break-word}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;background:#eef2f6;color:var(--muted)}
.ok{background:#e7f6ef;color:var(--ok)}.warn{background:#fef4e6;color:var(--warn)}.bad{background:#fde8ee;color:var(--bad)}
.tools{display:flex;flex-wrap:wrap;gap:4px}.tools code{background:#eef2f6;padding:1px 6px;border-radius:4px}
input,select,textarea,button{font:inherit}input[type=text],input[type=number],input[type=password],select,textarea{width:100%;padding:6px 8px;border:1px solid #cfd4dc;border-radius:6px;background:#fff}
textarea{min-height:60px}button{padding:6px 14px;border:0;border-radius:6px;background:var(--accent);color:#fff;cursor:pointer}button:disabled{opacity:.5}
.row{display:flex;gap:8px;align-items:center}.row>*{flex:1}.row>button{flex:0 0 auto}label{display:block;margin:8px 0 3px;color:var(--muted)}
.stat{display:inline-block;margin:0 28px 8px 0;color:var(--muted)}.stat b{color:var(--ink)}.stat b{display:block;font-size:22px}.muted{color:var(--muted)}.error{color:var(--bad)}
svg{width:100%;height:120px;display:block}#gate{max-width:520px;margin:40px auto}`;

const SCRIPT = String.raw`
"use strict";
const config = JSON.parse(document.getElementById("config").textContent);
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value; else if (key.startsWith("on")) node.addEventListener(key.slice(2), value); else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
};
const TOKEN_KEY = "mcp-host-token";
const token = () => sessionStorage.getItem(TOKEN_KEY) || "";
const authHeaders = () => (config.auth && token() ? { authorization: "Bearer " + token() } : {});
let requestId = 0;

async function api(path) {
  const response = await fetch(config.api + path, { headers: { accept: "application/json", ...authHeaders() } });
  if (!response.ok) throw Object.assign(new Error("HTTP " + response.status), { status: response.status });
  return response.json();
}

function readAnswer(text, type, id) {
  if (!type.includes("text/event-stream")) return JSON.parse(text);
  let found;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    try { const message = JSON.parse(line.slice(5)); if (message.id === id) found = message; } catch {}
  }
  if (!found) throw new Error("the answer held no response to request " + id);
  return found;
}

async function mcp(query, method, params) {
  const id = ++requestId;
  const meta = {
    [${JSON.stringify(PROTOCOL_VERSION_META_KEY)}]: ${JSON.stringify(MODERN)},
    [${JSON.stringify(CLIENT_CAPABILITIES_META_KEY)}]: {},
    [${JSON.stringify(CLIENT_INFO_META_KEY)}]: { name: "mcp-host operator page", version: "1" },
  };
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": ${JSON.stringify(MODERN)}, "mcp-method": method, ...authHeaders() };
  if (params && typeof params.name === "string") headers["mcp-name"] = params.name;
  const response = await fetch(config.mcpPath + (query ? "?" + query.replace(/^\?/, "") : ""), {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...(params || {}), _meta: meta } }),
  });
  const text = await response.text();
  let message;
  try { message = readAnswer(text, response.headers.get("content-type") || "", id); } catch { throw new Error("HTTP " + response.status + ": " + text.slice(0, 300)); }
  return message;
}

function badge(status) {
  const kind = status === "ready" || status === "up" || status === "completed" ? "ok" : status === "failed" || status === "unavailable" ? "bad" : "warn";
  return el("span", { class: "badge " + kind }, status);
}

function renderToolsets(overview) {
  const rows = overview.toolsets.map((t) =>
    el("tr", {},
      el("td", {}, el("b", {}, t.name), t.title && t.title !== t.name ? el("div", { class: "muted" }, t.title) : null),
      el("td", {}, t.always ? el("span", { class: "badge ok" }, "always") : t.default ? el("span", { class: "badge" }, "default") : el("span", { class: "muted" }, "on request")),
      el("td", {}, t.tools.length ? el("div", { class: "tools" }, t.tools.map((tool) => el("code", { title: tool.description || "" }, tool.name))) : el("span", { class: "muted" }, "no tools")),
    ));
  $("toolsets").replaceChildren(el("table", {}, el("tr", {}, el("th", {}, "toolset"), el("th", {}, "in the default selection"), el("th", {}, "tools")), rows));
}

function renderExtensions(overview) {
  const rows = overview.extensions.map((e) =>
    el("tr", {}, el("td", {}, el("b", {}, e.name), e.version ? el("span", { class: "muted" }, " " + e.version) : null), el("td", {}, badge(e.status)), el("td", { class: "error" }, e.error || "")));
  $("extensions").replaceChildren(el("table", {}, el("tr", {}, el("th", {}, "extension"), el("th", {}, "status"), el("th", {}, "error")), rows));
}

function renderUpstreams(overview) {
  if (overview.upstreams.length === 0) { $("upstreams").replaceChildren(el("p", { class: "muted" }, "No upstream servers are configured.")); return; }
  const rows = overview.upstreams.map((u) =>
    el("tr", {}, el("td", {}, el("b", {}, u.server)), el("td", {}, badge(u.state)), el("td", {}, u.tools === undefined ? "" : String(u.tools)), el("td", { class: "error" }, [u.code, u.message].filter(Boolean).join(": "))));
  $("upstreams").replaceChildren(el("table", {}, el("tr", {}, el("th", {}, "server"), el("th", {}, "state"), el("th", {}, "tools"), el("th", {}, "problem")), rows));
}

function renderEndpoints(overview) {
  if (overview.endpoints.length === 0) { $("endpoints").replaceChildren(el("p", { class: "muted" }, "No named endpoints (config endpoints:).")); return; }
  const rows = overview.endpoints.map((e) =>
    el("tr", {}, el("td", {}, el("b", {}, e.name)), el("td", {}, el("code", {}, e.selection)), el("td", {}, el("code", {}, e.url)), el("td", {}, el("a", { href: e.card, rel: "noopener" }, "server card"))));
  $("endpoints").replaceChildren(el("table", {}, el("tr", {}, el("th", {}, "endpoint"), el("th", {}, "selection"), el("th", {}, "URL"), el("th", {}, "card")), rows));
}

function renderTasks(overview) {
  const tasks = overview.tasks;
  const counts = Object.entries(tasks.counts).filter(([, n]) => n > 0).map(([status, n]) => el("span", { class: "stat" }, el("b", {}, String(n)), status));
  if (tasks.recent.length === 0) { $("tasks").replaceChildren(el("p", { class: "muted" }, "No MCP tasks right now.")); return; }
  const age = (iso) => Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000)) + " s ago";
  const rows = tasks.recent.map((t) =>
    el("tr", {}, el("td", {}, t.caller), el("td", {}, el("code", {}, t.tool), el("span", { class: "muted" }, " " + t.toolset)), el("td", {}, badge(t.status)), el("td", {}, t.statusMessage || ""), el("td", { class: "muted" }, age(t.createdAt))));
  $("tasks").replaceChildren(el("div", {}, counts), el("table", { id: "task-table" }, el("tr", {}, el("th", {}, "caller"), el("th", {}, "tool"), el("th", {}, "status"), el("th", {}, "message"), el("th", {}, "started")), rows));
}

function renderTraffic(overview) {
  const slots = overview.rates;
  const total = slots.reduce((n, s) => n + s.requests, 0);
  const recent = slots.slice(-6);
  const perSecond = recent.reduce((n, s) => n + s.requests, 0) / 60;
  const timed = recent.filter((s) => s.requests > 0);
  const p95 = timed.length ? Math.max(...timed.map((s) => s.p95Ms)) : 0;
  // The plot keeps a margin inside the box, so neither a bar nor the line (nor its stroke) touches an edge.
  const width = 600, height = 120, top = 12, bottom = 4, bar = width / slots.length;
  const most = Math.max(1, ...slots.map((s) => s.requests));
  const slowest = Math.max(1, ...slots.map((s) => s.p95Ms));
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("id", "traffic-chart");
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("preserveAspectRatio", "none");
  slots.forEach((s, i) => {
    const h = (s.requests / most) * (height - top - bottom);
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", String(i * bar + 1)); rect.setAttribute("width", String(bar - 2));
    rect.setAttribute("y", String(height - bottom - h)); rect.setAttribute("height", String(h));
    rect.setAttribute("fill", s.errors ? "#f7a1b5" : "#a9c4f5");
    const title = document.createElementNS(ns, "title");
    title.textContent = new Date(s.start).toLocaleTimeString() + ": " + s.requests + " requests, p95 " + s.p95Ms.toFixed(1) + " ms";
    rect.append(title); svg.append(rect);
  });
  // The p95 line joins only slots that had timed requests: an empty slot has no latency (not a latency of 0), so it
  // breaks the line; a slot alone shows as a dot.
  const y = (ms) => height - bottom - (ms / slowest) * (height - top - bottom);
  const runs = [];
  slots.forEach((s, i) => {
    if (s.p95Ms <= 0) { runs.push([]); return; }
    if (runs.length === 0) runs.push([]);
    runs[runs.length - 1].push((i * bar + bar / 2) + "," + y(s.p95Ms));
  });
  for (const points of runs.filter((run) => run.length > 0)) {
    const line = document.createElementNS(ns, points.length > 1 ? "polyline" : "circle");
    if (points.length > 1) {
      line.setAttribute("points", points.join(" "));
      line.setAttribute("fill", "none"); line.setAttribute("stroke-width", "2");
    } else {
      const [cx, cy] = points[0].split(",");
      line.setAttribute("cx", cx); line.setAttribute("cy", cy); line.setAttribute("r", "3"); line.setAttribute("fill", "#b54708");
    }
    line.setAttribute("class", "p95");
    line.setAttribute("stroke", "#b54708"); line.setAttribute("vector-effect", "non-scaling-stroke");
    svg.append(line);
  }
  $("traffic").replaceChildren(
    el("div", {},
      el("span", { class: "stat" }, el("b", { id: "request-total" }, String(total)), "requests, last 5 min"),
      el("span", { class: "stat" }, el("b", {}, perSecond.toFixed(2)), "per second, last minute"),
      el("span", { class: "stat" }, el("b", {}, p95.toFixed(1) + " ms"), "p95 latency, last minute"),
      el("span", { class: "stat" }, el("b", { id: "legacy-sessions" }, String(overview.sessions.legacy)), "live 2025-era sessions"),
      el("span", { class: "stat" }, el("b", { id: "open-streams" }, String(overview.sessions.streams)), "open listen streams")),
    svg,
    el("div", { class: "muted" }, "bars: requests per 10 s (red: with 5xx answers); line: p95 latency (top: " + slowest.toFixed(1) + " ms)"));
}

async function refresh() {
  try {
    const overview = await api("/overview");
    $("status").replaceChildren(badge(overview.extensions.some((e) => e.status === "failed") || overview.upstreams.some((u) => u.state !== "up") ? "degraded" : "ready"));
    document.title = overview.service + " — mcp-host";
    $("service").textContent = overview.service + " " + overview.version;
    renderToolsets(overview); renderExtensions(overview); renderUpstreams(overview); renderEndpoints(overview); renderTraffic(overview); renderTasks(overview);
  } catch (error) {
    $("status").replaceChildren(el("span", { class: "badge bad" }, error.status === 401 || error.status === 403 ? "token refused" : "unreachable"));
    if (error.status === 401 || error.status === 403) showGate("The server refused this token (" + error.message + "). Paste another one.");
  }
}

async function exploreSelection(event) {
  event?.preventDefault();
  const query = $("query").value.trim().replace(/^\?/, "");
  try {
    const answer = await api("/explore?q=" + encodeURIComponent(query));
    $("explored").replaceChildren(el("table", {},
      el("tr", {}, el("th", {}, "URL"), el("td", { class: "mono", id: "explored-url" }, config.mcpPath + (query ? "?" + query : ""))),
      el("tr", {}, el("th", {}, "active toolsets"), el("td", { id: "explored-active" }, answer.active.join(", ") || "none")),
      el("tr", {}, el("th", {}, "tools"), el("td", { id: "explored-tools" }, el("div", { class: "tools" }, answer.tools.map((t) => el("code", {}, t))))),
      el("tr", {}, el("th", {}, "modifiers"), el("td", { id: "explored-modifiers" }, answer.modifierText || "none")),
      el("tr", {}, el("th", {}, "unknown names"), el("td", { id: "explored-unknown", class: answer.unknown.length ? "error" : "muted" }, answer.unknown.join(", ") || "none")),
      el("tr", {}, el("th", {}, "instructions"), el("td", {}, el("pre", { id: "explored-instructions" }, answer.instructions || "(none)")))));
    await loadTools(query);
  } catch (error) {
    $("explored").replaceChildren(el("p", { class: "error" }, "Could not explore this selection: " + error.message));
  }
}

let tools = [];
async function loadTools(query) {
  const message = await mcp(query, "tools/list", {});
  tools = message.result ? message.result.tools : [];
  const select = $("tool");
  select.replaceChildren(...tools.map((t) => el("option", { value: t.name }, t.name)));
  renderForm();
}

function fieldFor(name, schema, required) {
  const id = "arg-" + name;
  const label = el("label", { for: id }, name + (required ? " *" : ""), schema.description ? el("span", { class: "muted" }, " — " + schema.description) : null);
  let input;
  if (Array.isArray(schema.enum)) input = el("select", { id, "data-arg": name, "data-kind": "enum" }, schema.enum.map((v) => el("option", { value: JSON.stringify(v) }, String(v))));
  else if (schema.type === "boolean") input = el("input", { id, type: "checkbox", "data-arg": name, "data-kind": "boolean" });
  else if (schema.type === "number" || schema.type === "integer") input = el("input", { id, type: "number", step: schema.type === "integer" ? "1" : "any", "data-arg": name, "data-kind": "number" });
  else if (schema.type === "string" || schema.type === undefined) input = el("input", { id, type: "text", "data-arg": name, "data-kind": "string" });
  else input = el("textarea", { id, "data-arg": name, "data-kind": "json", placeholder: schema.type === "array" ? "[ ]" : "{ }" });
  if (schema.default !== undefined && input.type !== "checkbox") input.value = typeof schema.default === "string" ? schema.default : JSON.stringify(schema.default);
  return el("div", {}, label, input);
}

function renderForm() {
  const tool = tools.find((t) => t.name === $("tool").value);
  if (!tool) { $("form-fields").replaceChildren(el("p", { class: "muted" }, "No tool on this selection.")); return; }
  const schema = tool.inputSchema || {};
  const required = new Set(schema.required || []);
  const fields = Object.entries(schema.properties || {}).map(([name, property]) => fieldFor(name, property || {}, required.has(name)));
  $("form-fields").replaceChildren(tool.description ? el("p", { class: "muted" }, tool.description) : "", ...(fields.length ? fields : [el("p", { class: "muted" }, "This tool takes no arguments.")]));
}

function argumentsOfForm() {
  const args = {};
  for (const input of document.querySelectorAll("[data-arg]")) {
    const name = input.dataset.arg, kind = input.dataset.kind;
    if (kind === "boolean") { args[name] = input.checked; continue; }
    if (input.value === "") continue;
    if (kind === "number") args[name] = Number(input.value);
    else if (kind === "enum" || kind === "json") args[name] = JSON.parse(input.value);
    else args[name] = input.value;
  }
  return args;
}

async function callTool(event) {
  event.preventDefault();
  const query = $("query").value.trim().replace(/^\?/, "");
  $("call").disabled = true;
  try {
    const message = await mcp(query, "tools/call", { name: $("tool").value, arguments: argumentsOfForm() });
    $("result").textContent = JSON.stringify(message.result ?? message, null, 2);
  } catch (error) {
    $("result").textContent = "The call failed: " + error.message;
  } finally {
    $("call").disabled = false;
  }
}

function showGate(message) {
  $("gate-message").textContent = message;
  $("gate").hidden = false;
  $("app").hidden = true;
}

function start() {
  $("gate").hidden = true;
  $("app").hidden = false;
  refresh();
  exploreSelection();
  setInterval(refresh, 5000);
}

$("explore").addEventListener("submit", exploreSelection);
$("tool").addEventListener("change", renderForm);
$("try").addEventListener("submit", callTool);
$("gate-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  start();
});
if (config.auth && !token()) showGate("This server verifies bearer tokens: paste an access token to see it. The token stays in this tab.");
else start();
`;

const BODY = `
<header><h1>mcp-host</h1><span class="sub" id="service"></span><span id="status"></span></header>
<div id="gate" hidden><section><h2>Token needed</h2><p id="gate-message"></p>
<form id="gate-form" class="row"><input id="token" type="password" autocomplete="off" placeholder="access token"><button type="submit">Open</button></form></section></div>
<main id="app" hidden>
<section class="wide"><h2>Traffic</h2><div id="traffic" class="muted">Loading…</div></section>
<section><h2>Toolsets</h2><div id="toolsets" class="muted">Loading…</div></section>
<section><h2>Extensions</h2><div id="extensions" class="muted">Loading…</div></section>
<section><h2>Upstream servers</h2><div id="upstreams" class="muted">Loading…</div></section>
<section><h2>Named endpoints</h2><div id="endpoints" class="muted">Loading…</div></section>
<section class="wide"><h2>Tasks</h2><div id="tasks" class="muted">Loading…</div></section>
<section><h2>Selection explorer</h2>
<form id="explore" class="row"><input id="query" type="text" placeholder="only=time,text" aria-label="selection"><button type="submit">Explore</button></form>
<div id="explored"></div></section>
<section class="wide"><h2>Try a tool</h2><form id="try"><label for="tool">tool (on the selection above)</label><select id="tool"></select>
<div id="form-fields"></div><p><button id="call" type="submit">Call</button></p></form>
<div class="muted">The result as the client gets it:</div><pre id="result">(not called yet)</pre></section>
</main>`;

/**
 * The page's Content-Security-Policy: nothing loads but its own inline style and script (allowed by their hashes),
 * it talks only to its own origin, and no other page may frame it (so no click on it can be stolen) — the answers
 * say so twice, with `frame-ancestors 'none'` and `X-Frame-Options: DENY`, for browsers that read only one.
 * @example
 * res.set("content-security-policy", pageSecurityPolicy());
 */
export function pageSecurityPolicy(): string {
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  return [
    "default-src 'none'",
    `script-src ${hash(SCRIPT)}`,
    `style-src ${hash(STYLE)}`,
    "connect-src 'self'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The page, with its configuration embedded (script-safe).
 * @example
 * res.type("html").send(renderPage({ service: "tools", api: "/_ui", mcpPath: "/mcp", auth: false }));
 */
export function renderPage(config: PageConfig): string {
  const embedded = JSON.stringify(config).replace(/</g, "\\u003c");
  const title = config.service.replace(/[<>&"]/g, "");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — mcp-host</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body>${BODY}
<script id="config" type="application/json">${embedded}</script>
<script>${SCRIPT}</script>
</body></html>`;
}
