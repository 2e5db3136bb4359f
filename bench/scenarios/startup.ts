/**
 * Scenario 4, `startup`: what it costs before the first answer. A 1000-tool selection's build on a cache miss
 * against a hit (in-process); start-up with 100 extensions offering 5000 tools (in-process phase by phase, and
 * the built CLI discovering and importing them from a project, then a JSON-Schema tool's first call, which pays for
 * its validator, against its second); and the stdio cold start — spawn to the first tools/list answer — of
 * `mcp-host stdio` (both eras, the bundled command and the same command unbundled) against raw SDK stdio servers,
 * interleaved.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { fixed, ratio } from "../lib/format.js";
import { median, percentile } from "../lib/stats.js";
import { coldStart, type StdioEra, type TimedCall } from "../lib/stdio-client.js";
import { point, target } from "../lib/targets.js";
import { emptyOutcome, type Scenario, type ScenarioContext } from "./scenario.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/cli/main.js");
/** The same command as tsc emits it, not bundled (scripts/bundle-cli.mjs writes it): the bundle's before. */
const UNBUNDLED_CLI = join(ROOT, "dist/cli/main.unbundled.js");
const STDIO_PROJECT = fileURLToPath(new URL("../fixtures/stdio-project", import.meta.url));
const CHILD = (name: string) => fileURLToPath(new URL(`./startup/${name}`, import.meta.url));

async function child<T>(script: string, input: unknown): Promise<T> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", CHILD(script), JSON.stringify(input)], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 });
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`${script} printed no RESULT line: ${stdout.slice(-500)}`);
  return JSON.parse(line.slice("RESULT ".length)) as T;
}

/**
 * The stdio cold start's project as a user's install has it: a copy of bench/fixtures/stdio-project whose `zod`
 * resolves to the copy mcp-host itself loads (root node_modules/zod), as `npm install mcp-host zod` dedupes it to
 * one. Served from its place in bench/, its extension found bench/node_modules/zod — a second copy of the same version
 * (95 more modules to load) that no real install has and the raw SDK servers it is compared with never load.
 */
function installedStdioProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-bench-stdio-"));
  cpSync(STDIO_PROJECT, dir, { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(ROOT, "node_modules", "zod"), join(dir, "node_modules", "zod"), "dir");
  return dir;
}

/** A project with `count` extensions of `each` JSON-Schema tools, for `mcp-host stdio --cwd`. */
function manyExtensionsProject(count: number, each: number): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-bench-"));
  mkdirSync(join(dir, "extensions"));
  const entries: Record<string, string> = {};
  for (let e = 0; e < count; e += 1) {
    const name = `ext${String(e).padStart(3, "0")}`;
    entries[name] = `./extensions/${name}.js`;
    const tools = Array.from({ length: each }, (_, t) => ({
      name: `${name}_tool_${String(t).padStart(2, "0")}`,
      description: `Tool ${t} of ${name}: searches a space.`,
      inputSchema: {
        type: "object",
        properties: {
          space: { type: "string" },
          limit: { type: "integer", minimum: 1, maximum: 100 },
          mode: { type: "string", enum: ["fast", "thorough", "exact"], default: "fast" },
        },
        required: ["space"],
      },
    }));
    if (e === 0)
      tools.push({
        name: "echo",
        description: "Returns its text argument",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } as never,
      });
    const body = `const tools = ${JSON.stringify(tools)};\nexport default { name: ${JSON.stringify(name)}, version: "1.0.0", toolsets: [{ name: ${JSON.stringify(name)}, description: "the tools of ${name}" }], tools: tools.map((t) => ({ ...t, handler: (args) => ({ content: [{ type: "text", text: t.name === "echo" ? args.text : "ok" }] }) })) };\n`;
    writeFileSync(join(dir, "extensions", `${name}.js`), body);
  }
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ private: true, name: "bench-many-extensions", version: "1.0.0", type: "module", mcpExtensions: entries }, null, 2),
  );
  return dir;
}

interface StdioSubject {
  id: string;
  label: string;
  args: string[];
  era: StdioEra;
  tools: number;
}

async function stdioColdStarts(context: ScenarioContext, subjects: readonly StdioSubject[], runs: number) {
  const times = new Map<string, number[]>(subjects.map((s) => [s.id, []]));
  const openings = new Map<string, number[]>(subjects.map((s) => [s.id, []]));
  const cpu = new Map<string, number[]>(subjects.map((s) => [s.id, []]));
  for (const subject of subjects) await coldStart(subject.args, subject.era, subject.tools); // warm the disk cache, not timed
  for (let round = 0; round < runs; round += 1) {
    for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
      const result = await coldStart(subject.args, subject.era, subject.tools);
      times.get(subject.id)!.push(result.ms);
      openings.get(subject.id)!.push(result.openingMs);
      if (result.cpuMs !== undefined) cpu.get(subject.id)!.push(result.cpuMs);
    }
    context.log(`  stdio round ${round + 1}/${runs}: ${subjects.map((s) => `${s.label} ${fixed(times.get(s.id)!.at(-1)!)} ms`).join(", ")}`);
  }
  return { times, openings, cpu };
}

export const startupScenario: Scenario = {
  name: "startup",
  title: "Scenario 4 — startup: cache, many extensions, stdio cold start",
  about:
    "Before the first answer: a 1000-tool selection's build on a cache miss vs a hit (in-process, host.build after forgetBuilt); start-up with 100 extensions offering 5000 tools, in-process phase by phase (zod tools) and through the built CLI (`mcp-host stdio` discovering and importing 100 extension files of JSON-Schema tools, spawn to the first tools/list answer, then a tool's first call, its second, and another tool's first); and the stdio cold start, spawn to the first tools/list answer (opening, then tools/list), of `mcp-host stdio` in both eras — the bundled command and the same command unbundled — against raw SDK v2 (`serveStdio`) and v1 stdio servers with the same echo tool, all plain node, interleaved.",
  async run(context) {
    const outcome = emptyOutcome();
    const quick = context.options.quick;
    if (!existsSync(CLI)) throw new Error(`the built CLI ${CLI} is missing; run "npm run build" first`);

    context.log(" build cache: 1000-tool selection, miss vs hit");
    const cache = await child<{ tools: number; missMs: number[]; hitMs: number[] }>("build-cache.child.ts", {
      extraTools: 1000,
      misses: quick ? 5 : 30,
      hits: quick ? 200 : 3000,
    });
    const miss = median(cache.missMs);
    const hit = median(cache.hitMs);
    outcome.data.buildCache = { tools: cache.tools, missMedianMs: miss, hitMedianMs: hit, missRuns: cache.missMs.length, hitRuns: cache.hitMs.length };

    context.log(" start-up with 100 extensions × 50 tools (in-process, fresh processes)");
    type Phases = {
      tools: number;
      defineMs: number;
      startMs: number;
      firstBuildMs: number;
      listenMs: number;
      firstAnswerMs: number;
      hostReadyMs: number;
      processUptimeMs: number;
    };
    const phases: Phases[] = [];
    for (let i = 0; i < (quick ? 1 : 3); i += 1) phases.push(await child<Phases>("many-extensions.child.ts", { extensions: 100, toolsEach: 50 }));
    const phase = (key: keyof Phases) => median(phases.map((p) => p[key]));

    context.log(" start-up with 100 extensions × 50 tools (built CLI, mcp-host stdio)");
    const project = manyExtensionsProject(100, 50);
    const cliStartups: number[] = [];
    // The first call of a JSON-Schema tool generates its validator (and the first of all imports the engine); the
    // second is served from the cache; a third tool, never called before, pays its own generation only.
    const calls: TimedCall[] = [
      { name: "ext000_tool_00", arguments: { space: "a" } },
      { name: "ext000_tool_00", arguments: { space: "b" } },
      { name: "ext001_tool_00", arguments: { space: "c" } },
    ];
    const callRuns: number[][] = [];
    try {
      for (let i = 0; i < (quick ? 1 : 3); i += 1) {
        const started = await coldStart([CLI, "stdio", "--cwd", project], "legacy", 5001 + 1, { calls });
        cliStartups.push(started.ms);
        callRuns.push(started.callMs);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
    const callMedian = (index: number) => median(callRuns.map((run) => run[index]!));
    outcome.data.manyExtensions = { inProcess: phases, cliMs: cliStartups, firstCallsMs: callRuns };

    context.log(" stdio cold start");
    const stdioProject = installedStdioProject();
    const host = [CLI, "stdio", "--cwd", stdioProject];
    const v2 = [fileURLToPath(new URL("../servers/stdio/sdk-v2-stdio.mjs", import.meta.url))];
    const v1 = [fileURLToPath(new URL("../servers/stdio/sdk-v1-stdio.mjs", import.meta.url))];
    const unbundled = existsSync(UNBUNDLED_CLI) ? [UNBUNDLED_CLI, "stdio", "--cwd", stdioProject] : undefined;
    const subjects: StdioSubject[] = [
      { id: "host-legacy", label: "mcp-host stdio, 2025", args: host, era: "legacy", tools: 2 },
      { id: "host-modern", label: "mcp-host stdio, 2026-07-28", args: host, era: "modern", tools: 2 },
      ...(unbundled
        ? [
            { id: "unbundled-legacy", label: "mcp-host stdio unbundled (before), 2025", args: unbundled, era: "legacy" as const, tools: 2 },
            { id: "unbundled-modern", label: "mcp-host stdio unbundled (before), 2026-07-28", args: unbundled, era: "modern" as const, tools: 2 },
          ]
        : []),
      { id: "v2-legacy", label: "raw SDK v2 stdio, 2025", args: v2, era: "legacy", tools: 1 },
      { id: "v2-modern", label: "raw SDK v2 stdio, 2026-07-28", args: v2, era: "modern", tools: 1 },
      { id: "v1-legacy", label: "raw SDK v1 stdio, 2025", args: v1, era: "legacy", tools: 1 },
    ];
    const loadBefore = (await import("node:os")).loadavg()[0]!;
    const { times, openings, cpu } = await stdioColdStarts(context, subjects, quick ? 3 : 20).finally(() =>
      rmSync(stdioProject, { recursive: true, force: true }),
    );
    const stdio = Object.fromEntries(
      subjects.map((s) => [
        s.id,
        {
          label: s.label,
          runsMs: times.get(s.id)!,
          medianMs: median(times.get(s.id)!),
          openingMedianMs: median(openings.get(s.id)!),
          ...(cpu.get(s.id)!.length > 0 ? { cpuMedianMs: median(cpu.get(s.id)!) } : {}),
        },
      ]),
    );
    outcome.data.stdio = { ...stdio, loadAverage1mBefore: loadBefore };
    const med = (id: string) => stdio[id]!.medianMs;

    outcome.tables = [
      {
        title: "Build of a 1000-tool selection (in-process, host.build)",
        columns: ["", "median ms", "runs", "miss ÷ hit"],
        rows: [
          ["cache miss (forgetBuilt, then build)", fixed(miss, 2), String(cache.missMs.length), ""],
          ["cache hit", fixed(hit, 4), String(cache.hitMs.length), ratio(miss / hit)],
        ],
      },
      {
        title: "Start-up with 100 extensions offering 5000 tools",
        columns: ["phase", "median ms"],
        rows: [
          ["in-process: define the 100 extensions (5000 zod schemas)", fixed(phase("defineMs"))],
          ["in-process: buildHost + start", fixed(phase("startMs"))],
          ["in-process: first build of the whole selection", fixed(phase("firstBuildMs"))],
          ["in-process: listenHost", fixed(phase("listenMs"))],
          ["in-process: first tools/list answered over HTTP", fixed(phase("firstAnswerMs"))],
          ["in-process: buildHost → first answer", fixed(phase("hostReadyMs"))],
          ["in-process: process uptime at first answer (node + tsx + imports included)", fixed(phase("processUptimeMs"))],
          [
            "built CLI: spawn `mcp-host stdio` → first tools/list answer (discovery, 100 imports, 5001 tools + list_server_toolsets)",
            fixed(median(cliStartups)),
          ],
          ["built CLI: first call of a JSON-Schema tool (loads the schema engine, generates its validator)", fixed(callMedian(0), 2)],
          ["built CLI: second call of that tool (validator cached)", fixed(callMedian(1), 2)],
          ["built CLI: first call of another tool (generates its validator)", fixed(callMedian(2), 2)],
        ],
        notes: [
          `${phases.length} fresh in-process runs, ${cliStartups.length} CLI runs. A call is timed from send to answer over stdio; the tools/list before it generated no validator.`,
        ],
      },
      {
        title: "stdio cold start: spawn → first tools/list answer",
        columns: ["server", "median ms", "p90 ms", "min ms", "opening answered (median ms)", "CPU by the answer (median ms)", "runs", "÷ raw SDK v2 same era"],
        rows: subjects.map((s) => {
          const sorted = [...times.get(s.id)!].sort((a, b) => a - b);
          const base = s.era === "legacy" ? med("v2-legacy") : med("v2-modern");
          return [
            s.label,
            fixed(median(sorted)),
            fixed(percentile(sorted, 90)),
            fixed(sorted[0]!),
            fixed(median(openings.get(s.id)!)),
            cpu.get(s.id)!.length > 0 ? fixed(median(cpu.get(s.id)!)) : "",
            String(sorted.length),
            s.id.startsWith("v2") ? "" : ratio(median(sorted) / base),
          ];
        }),
        notes: [
          `All plain node (mcp-host's built dist/cli/main.js, the bundle, and dist/cli/main.unbundled.js, the same command as tsc emits it, serving a copy of bench/fixtures/stdio-project whose zod is mcp-host's own, as an install dedupes it); CPU is what the server's threads had run by the answer (Linux /proc), steadier than wall time on a shared machine; 1-minute load average before: ${loadBefore.toFixed(2)}.`,
        ],
      },
    ];
    const bundleRatios = unbundled
      ? [
          { name: "mcp-host stdio cold start, bundled ÷ unbundled, 2025 (< 1: the bundle is faster)", value: med("host-legacy") / med("unbundled-legacy") },
          {
            name: "mcp-host stdio cold start, bundled ÷ unbundled, 2026-07-28 (< 1: the bundle is faster)",
            value: med("host-modern") / med("unbundled-modern"),
          },
        ]
      : [];
    outcome.ratios = [
      ...bundleRatios,
      { name: "build cache miss ÷ hit, 1000 tools", value: miss / hit },
      { name: "raw SDK v2 stdio ÷ mcp-host stdio cold start, 2025 era (> 1: host faster)", value: med("v2-legacy") / med("host-legacy") },
      { name: "raw SDK v2 stdio ÷ mcp-host stdio cold start, 2026-07-28 (> 1: host faster)", value: med("v2-modern") / med("host-modern") },
    ];
    outcome.targets = [
      target("S4.stdio-ratio", "mcp-host stdio cold start within 1.5× raw SDK stdio (same era)", [
        point("2025", med("host-legacy") / med("v2-legacy"), (v) => v <= 1.5, ratio),
        point("2026-07-28", med("host-modern") / med("v2-modern"), (v) => v <= 1.5, ratio),
      ]),
      target("S4.stdio-abs", "mcp-host stdio cold start < 300 ms (on an idle machine: see the load average)", [
        point(
          "2025",
          med("host-legacy"),
          (v) => v < 300,
          (v) => `${fixed(v)} ms`,
        ),
        point(
          "2026-07-28",
          med("host-modern"),
          (v) => v < 300,
          (v) => `${fixed(v)} ms`,
        ),
      ]),
      target("S4.startup-5000", "start-up with 100 extensions offering 5000 tools < 2 s", [
        point(
          "built CLI, spawn → first answer",
          median(cliStartups),
          (v) => v < 2000,
          (v) => `${fixed(v)} ms`,
        ),
        point(
          "in-process, buildHost → first answer",
          phase("hostReadyMs"),
          (v) => v < 2000,
          (v) => `${fixed(v)} ms`,
        ),
      ]),
    ];
    return outcome;
  },
};
