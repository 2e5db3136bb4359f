/**
 * Renders `describe()` as a readable table for `mcp-host toolsets`: which toolsets exist, which are on for the
 * selection, what tools that gives, and which extensions failed and why.
 */
import type { HostDescription } from "../host/describe.js";

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** The selection's modifiers in a line: `readonly; tools: issues.get_issue; search (312 tools searchable)`. */
function modifiersText(m: NonNullable<HostDescription["modifiers"]>): string {
  const parts = [
    ...(m.readonly ? ["readonly (only tools annotated readOnlyHint)"] : []),
    ...(m.tools.length > 0 ? [`single tools: ${m.tools.join(", ")}`] : []),
    ...(m.search ? [`search (find_tools and call_tool over ${m.searchable ?? 0} tool${m.searchable === 1 ? "" : "s"})`] : []),
  ];
  return parts.join("; ");
}

/**
 * @example
 * console.log(formatToolsetsTable(await host.describe(selection)));
 */
export function formatToolsetsTable(d: HostDescription): string {
  const rows = d.toolsets.map((t) => [
    t.active ? "on" : "",
    t.name,
    [t.default ? "default" : "", t.always ? "always" : ""].filter(Boolean).join(","),
    t.extensions.join(","),
    t.description ?? t.title,
  ]);
  const header = ["", "TOOLSET", "FLAGS", "EXTENSIONS", "DESCRIPTION"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const lines = [header, ...rows].map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : pad(cell, widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
  lines.push("", `active: ${d.active.join(", ") || "(none)"}`, `tools (${d.tools.length}): ${d.tools.join(", ") || "(none)"}`);
  if (d.modifiers !== undefined) lines.push(`modifiers: ${modifiersText(d.modifiers)}`);
  if (d.unknown.length > 0) lines.push(`unknown (not declared, ignored): ${d.unknown.join(", ")}`);
  const failed = d.extensions.filter((e) => e.status === "failed");
  lines.push(`extensions: ${d.extensions.map((e) => `${e.name} (${e.status})`).join(", ") || "(none)"}`);
  for (const e of failed) lines.push(`  failed ${e.name}: ${e.code ?? ""} ${e.error ?? ""}`.trimEnd());
  for (const u of d.unavailable) lines.push(`  unavailable upstream ${u.server}: ${u.code} (${u.phase})`);
  return lines.join("\n");
}
