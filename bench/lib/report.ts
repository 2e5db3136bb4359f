/**
 * Writing a run down: results as JSON (latest.json, everything measured) and as Markdown (latest.md, the
 * machine's facts, every scenario's tables, ratios and targets), and the same Markdown on stdout.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResults, ScenarioResult, Table } from "./results.js";
import { passText } from "./targets.js";

function escapeCell(cell: string): string {
  return cell.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function markdownTable(table: Table): string {
  const lines = [
    `**${table.title}**`,
    "",
    `| ${table.columns.map(escapeCell).join(" | ")} |`,
    `|${table.columns.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
  ];
  for (const row of table.rows) lines.push(`| ${row.map(escapeCell).join(" | ")} |`);
  for (const note of table.notes ?? []) lines.push("", `*${note}*`);
  return lines.join("\n");
}

export function scenarioMarkdown(scenario: ScenarioResult): string {
  const parts = [`## ${scenario.title}`, "", scenario.about, "", `*took ${scenario.seconds.toFixed(0)} s*`];
  for (const table of scenario.tables) parts.push("", markdownTable(table));
  if (scenario.targets.length) {
    parts.push(
      "",
      markdownTable({
        title: "Targets (issues 12 and 18; a host figure is the CLI with its default logging, the silent one beside it)",
        columns: ["target", "result", "measured"],
        rows: scenario.targets.map((t) => [`${t.id}: ${t.text}`, passText(t.pass), t.measured]),
      }),
    );
  }
  for (const note of scenario.notes) parts.push("", `- ${note}`);
  if (scenario.errors.length) parts.push("", "**Errors (the run fails):**", "", ...scenario.errors.map((e) => `- ${e}`));
  return parts.join("\n");
}

export function runMarkdown(results: RunResults): string {
  const m = results.machine;
  const head = [
    "# mcp-host benchmark results",
    "",
    `${results.options.quick ? "**Quick run** (each measurement about a second: rough numbers, same checks). " : ""}Ratios come from one interleaved run and are what to compare; absolute numbers from a shared machine mislead.`,
    "",
    "| machine | |",
    "|---|---|",
    `| date | ${m.date} |`,
    `| CPU | ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB |`,
    `| OS | ${m.os} |`,
    `| Node | ${m.node} |`,
    `| load average at start (1/5/15 min) | ${m.loadAverageAtStart.join(" / ")} |`,
    `| load average at end | ${m.loadAverageAtEnd?.join(" / ") ?? "–"} |`,
    `| git | ${m.gitCommit ?? "–"} |`,
    `| peers | ${Object.entries(results.peers)
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")} |`,
    `| options | ${JSON.stringify(results.options)} |`,
  ];
  const targets = results.scenarios.flatMap((s) => s.targets);
  const summary = targets.length
    ? [
        "",
        markdownTable({
          title: "All targets",
          columns: ["target", "result", "measured"],
          rows: targets.map((t) => [`${t.id}: ${t.text}`, passText(t.pass), t.measured]),
        }),
      ]
    : [];
  return [...head, ...summary, ...results.scenarios.map((s) => `\n${scenarioMarkdown(s)}`), ""].join("\n");
}

export function writeResults(out: string, results: RunResults): { json: string; md: string } {
  mkdirSync(out, { recursive: true });
  const json = join(out, "latest.json");
  const md = join(out, "latest.md");
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(md, runMarkdown(results));
  return { json, md };
}
