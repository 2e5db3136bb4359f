/**
 * `mcp-host check` (docs/design.md §13): validates the config, loads the extensions, connects the upstream servers and
 * verifies their filters, pings the fleet's Redis (with `scaleOut.redis`), then prints a report — text, or JSON with `--json` — and exits 0 only when nothing is
 * wrong (1 when something failed; a config that does not validate exits 2 like every config error). The report goes
 * through the deployment's redactor: no secret the config resolved, nor a credential obtained, is printed.
 */
import type { ExtensionDescription, UnavailableDescription } from "../../host/describe.js";
import type { CliSettings } from "../args.js";
import { loadDeployment } from "../deployment.js";
import { redisProblem } from "../scale-out.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What `check` reports. */
export interface CheckReport {
  ok: boolean;
  config: string | null;
  extensions: ExtensionDescription[];
  /** Each upstream server of the config, with its state and how many tools it offers. */
  upstreams: Array<{ server: string; state: string; tools: number; code?: string }>;
  unavailable: UnavailableDescription[];
  /** What stopped the gateway (an unreachable required server, a filter that matches nothing…), by code. */
  problems: Array<{ code: string; message: string }>;
  toolsets: string[];
}

function formatReport(report: CheckReport): string {
  const lines = [`config: ${report.config ?? "none found (defaults)"}`, `toolsets: ${report.toolsets.join(", ") || "(none)"}`];
  for (const e of report.extensions)
    lines.push(`extension ${e.name}${e.version ? `@${e.version}` : ""}: ${e.status}${e.error ? ` — ${e.code ?? ""} ${e.error}` : ""}`);
  for (const u of report.upstreams)
    lines.push(`upstream ${u.server}: ${u.state}${u.state === "up" ? ` (${u.tools} tools)` : ""}${u.code ? ` — ${u.code}` : ""}`);
  for (const p of report.problems) lines.push(`problem ${p.code}: ${p.message}`);
  for (const u of report.unavailable) lines.push(`upstream ${u.server}: unavailable (${u.code}, ${u.phase})${u.message ? ` — ${u.message}` : ""}`);
  lines.push(report.ok ? "check: ok" : "check: problems found");
  return lines.join("\n");
}

/**
 * @example
 * process.exitCode = await checkCommand(parseCli(["check", "--json"], cwd), process.env, console.log);
 */
export async function checkCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  const { host, source, gateway, redactor, config } = await loadDeployment(settings, env, { logLevel: "warn", selectionArgument: false });
  try {
    const extensions = host.extensionStatuses();
    const unavailable = host.unavailable();
    const problems = [...(gateway?.problems() ?? []), ...host.skillProblems()].map((p) => ({ code: p.code, message: p.message }));
    const redis = await redisProblem(config);
    if (redis !== undefined) {
      problems.push({
        code: "SCALE_OUT_REDIS_DOWN",
        message: `scaleOut.redis: Redis did not answer a PING (${redis}); the instances would serve without sharing events and rate limits`,
      });
    }
    const upstreams = (gateway?.status() ?? []).map((s) => ({ server: s.server, state: s.state, tools: s.tools, ...(s.code ? { code: s.code } : {}) }));
    const ok = extensions.every((e) => e.status !== "failed") && unavailable.length === 0 && problems.length === 0;
    const report: CheckReport = {
      ok,
      config: source ?? null,
      extensions,
      upstreams,
      unavailable,
      problems,
      toolsets: host.declaredToolsets().map((t) => t.name),
    };
    out(settings.json ? JSON.stringify(redactor.redactValue(report), null, 2) : redactor.redact(formatReport(report)));
    return ok ? 0 : 1;
  } finally {
    await host.stop().catch(() => {});
  }
}
