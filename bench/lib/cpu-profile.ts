/**
 * Reads a V8 .cpuprofile (from --cpu-prof) and sums self time per function and per package, so a profile of
 * mcp-host under load can be read as "where does a request's CPU go". Self time of a node = the time deltas
 * of the samples that landed in it; a function's url says its package (node_modules/<pkg>), mcp-host's own
 * source (src/…), node's internals (node:…), or V8's pseudo-frames ((garbage collector), (program)).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Table } from "./results.js";

/** The repository's root, with a trailing slash: what is under it is mcp-host's own code or the bench's. */
const REPO = fileURLToPath(new URL("../../", import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  micros: number;
  share: number;
}

export interface ProfileSummary {
  file: string;
  totalMicros: number;
  idleMicros: number;
  functions: SelfTime[];
  packages: SelfTime[];
}

/** The package a frame's url belongs to. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node:internal";
  const path = decodeURIComponent(url.replace(/^file:\/\//, ""));
  const at = path.lastIndexOf("/node_modules/");
  if (at >= 0) {
    const rest = path.slice(at + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (!path.startsWith(REPO)) return path;
  const [top, second] = path.slice(REPO.length).split("/");
  if (top === "src" || top === "dist") return `mcp-host ${top}/${second}`;
  if (top === "bench") return "bench (peer wrapper)";
  return path.slice(REPO.length);
}

function shortUrl(url: string): string {
  const path = decodeURIComponent(url.replace(/^file:\/\//, ""));
  const at = path.lastIndexOf("/node_modules/");
  if (at >= 0) return path.slice(at + "/node_modules/".length);
  return path.startsWith(REPO) ? path.slice(REPO.length) : path;
}

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfByNode = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i]!;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, micros] of selfByNode) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === "(idle)") {
      idle += micros;
      continue;
    }
    total += micros;
    const name = `${functionName || "(anonymous)"}${url ? ` ${shortUrl(url)}:${lineNumber + 1}` : ""}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
    const pkg = packageOf(url, functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const ranked = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, micros, share: total > 0 ? micros / total : 0 }));
  return { file, totalMicros: total, idleMicros: idle, functions: ranked(functions), packages: ranked(packages) };
}

export function profileTables(summary: ProfileSummary, label: string): Table[] {
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  const note = `${label}: ${(summary.totalMicros / 1e6).toFixed(1)} s of CPU sampled (idle ${(summary.idleMicros / 1e6).toFixed(1)} s left out); profile ${summary.file}`;
  return [
    {
      title: `${label}: self time by package`,
      columns: ["package", "self %", "self ms"],
      rows: summary.packages.map((p) => [p.name, pct(p.share), (p.micros / 1000).toFixed(0)]),
      notes: [note],
    },
    {
      title: `${label}: self time by function (top ${summary.functions.length})`,
      columns: ["function", "self %", "self ms"],
      rows: summary.functions.map((f) => [f.name, pct(f.share), (f.micros / 1000).toFixed(0)]),
    },
  ];
}
