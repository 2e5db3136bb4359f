/**
 * What the reload tests share: a real deployment started in process the way `mcp-host serve` starts it (its config
 * file in a temporary project folder, `loadDeployment`, `listenHost` with the config's options), its reload state,
 * a way to rewrite the file, the reload's own log lines, and probes that say over real HTTP what a token reaches.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCli } from "../../src/cli/args.js";
import { type Deployment, loadDeployment, refuseGatewayProblems } from "../../src/cli/deployment.js";
import { servingOptionsOf } from "../../src/cli/listen-options.js";
import type { ReloadState } from "../../src/cli/reload.js";
import type { CliSettings } from "../../src/cli/args.js";
import { listenHost, type ListeningHost } from "../../src/http/listen.js";
import { createLogger, type LogRecord } from "../../src/logger.js";
import { cleanEnv, REPO } from "./cli-process.js";
import { type Cleanup, lastRpcMessage, modernBody, modernHeaders } from "./http-host.js";

/** The 2025-era fixture upstream over stdio, offering `tools` (each answers "ran"), with more of its fixture config. */
export function fixtureServer(name: string, tools: string[], more: Record<string, unknown> = {}): Record<string, unknown> {
  const config = { name, tools: tools.map((tool) => ({ name: tool, behaviour: "count" })), ...more };
  return { command: process.execPath, args: [join(REPO, "test", "fixtures", "upstream", "legacy-stdio.mjs"), JSON.stringify(config)] };
}

export interface ReloadableDeployment {
  dir: string;
  settings: CliSettings;
  env: NodeJS.ProcessEnv;
  deployment: Deployment;
  served: ListeningHost;
  state: ReloadState;
  /** What the reload itself logged (the deployment's logger is swapped for this recorder once it is up). */
  records: LogRecord[];
  /** Rewrites the config file. */
  write(config: Record<string, unknown>): void;
}

/** Starts `config` as `mcp-host serve --cwd <a new folder>` would; `cleanup` closes it (and its upstreams) and removes the folder. */
export async function startDeployment(cleanup: Cleanup, config: Record<string, unknown>): Promise<ReloadableDeployment> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-reload-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "reload-project", version: "1.0.0" }));
  const write = (next: Record<string, unknown>) => writeFileSync(join(dir, "mcp-host.config.json"), JSON.stringify(next, null, 2));
  write(config);
  const settings = parseCli(["serve", "--cwd", dir, "--log-level", "error"], dir);
  const env = cleanEnv();
  const deployment = await loadDeployment(settings, env, { logLevel: "error", selectionArgument: true });
  await refuseGatewayProblems(deployment);
  const served = await listenHost(deployment.host, servingOptionsOf(deployment));
  cleanup.add(() => served.close());
  const records: LogRecord[] = [];
  deployment.logger = createLogger({ level: "debug", sink: (record) => records.push(record) });
  return { dir, settings, env, deployment, served, state: { deployment, config: deployment.config }, records, write };
}

/** `Authorization: Bearer …`, or nothing. */
function authorization(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/**
 * One POST on a connection of its own. On a pooled keep-alive connection the every-combination test's probes were
 * reset (ECONNRESET) once the schema's sections made thousands of in-process reloads run between two probes: the
 * server's keep-alive timeout closed the idle connection as the next probe was written on it.
 */
function postOnItsOwnConnection(url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function post(
  url: URL,
  token: string | undefined,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<{ status: number; body: any }> {
  const { status, text } = await postOnItsOwnConnection(url, { ...modernHeaders(method, name), ...authorization(token) }, modernBody(method, params));
  return { status, body: text.length > 0 && status < 300 ? lastRpcMessage(text) : undefined };
}

/**
 * What a token sees on a selection: the sorted tool names it lists, or `HTTP <status>` when it is not served.
 * @example
 * await toolsSeen(served.url, "only=vault", reader) // "HTTP 403"
 */
export async function toolsSeen(url: URL, query: string, token: string | undefined): Promise<string> {
  const { status, body } = await post(new URL(`${url.href}${query ? `?${query}` : ""}`), token, "tools/list", {});
  if (status !== 200) return `HTTP ${status}`;
  assert.ok(Array.isArray(body?.result?.tools), JSON.stringify(body));
  return (body.result.tools as Array<{ name: string }>)
    .map((t) => t.name)
    .sort()
    .join(", ");
}

/**
 * What calling `tool` with a token comes to: `ran: <text>`, `error <code>`, `isError: <text>` or `HTTP <status>`.
 * @example
 * await callSeen(served.url, "", reader, "open_vault") // "error -32602"
 */
export async function callSeen(url: URL, query: string, token: string | undefined, tool: string): Promise<string> {
  const { status, body } = await post(new URL(`${url.href}${query ? `?${query}` : ""}`), token, "tools/call", { name: tool, arguments: {} }, tool);
  if (status !== 200) return `HTTP ${status}`;
  if (body?.error) return `error ${body.error.code}`;
  const text = String(body?.result?.content?.[0]?.text ?? "");
  return body?.result?.isError === true ? `isError: ${text}` : `ran: ${text}`;
}
