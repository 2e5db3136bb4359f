// What a test run left running (scripts/test.mjs): after every step, any process that was not there before the run
// and that belongs to it — it carries the run's marker in its environment, or works or was started inside the checkout
// or the run's own temporary folder — is named in the summary and killed, and the run fails. A test that leaves a
// process behind has failed, whether or not its assertions passed. Linux /proc; elsewhere nothing is found.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

function read(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Every live process: pid, its start time (to tell a reused pid), parent, group, command line, folder. */
function table() {
  let entries = [];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const rows = [];
  for (const entry of entries) {
    const stat = read(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") continue;
    let cwd = "";
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      // ending, or not ours to read
    }
    const command = (read(`/proc/${entry}/cmdline`) ?? "").split("\0").filter(Boolean).join(" ");
    rows.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]), started: fields[19], command, cwd });
  }
  return rows;
}

const key = (p) => `${p.pid}:${p.started}`;

/** The processes alive now, to leave alone afterwards (another engineer's server, the shell). */
export function processesBefore() {
  return new Set(table().map(key));
}

function ancestors() {
  const rows = new Map(table().map((p) => [p.pid, p]));
  const out = new Set();
  for (let pid = process.pid; pid > 1 && !out.has(pid); pid = rows.get(pid)?.ppid ?? 0) out.add(pid);
  return out;
}

/**
 * The run's processes still alive: new since `before`, not this runner or its ancestors, and the run's own — it
 * carries the run's marker in its environment, or works or was started inside the run's temporary folder, or inside
 * the checkout with no parent left but init (an orphan: what a killed test leaves, such as a gateway's upstream, which
 * gets a minimal environment) or a parent that is itself one of these. A process of another run in the same checkout
 * has a live parent and another marker, and is left alone.
 * @param {{ before: Set<string>, marker: string, root: string, runTmp: string }} run
 */
export function leftovers({ before, marker, root, runTmp }) {
  const mine = ancestors();
  const inside = (folder, text) => text === folder || text.startsWith(`${folder}/`) || text.includes(`${folder}/`);
  const candidates = table().filter((p) => !before.has(key(p)) && !mine.has(p.pid));
  const found = new Map();
  for (const p of candidates) {
    const environ = read(`/proc/${p.pid}/environ`);
    const marked = environ?.split("\0").includes(marker) === true;
    if (marked || inside(runTmp, p.cwd) || inside(runTmp, p.command)) found.set(p.pid, p);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of candidates) {
      if (found.has(p.pid) || !(inside(root, p.cwd) || inside(root, p.command))) continue;
      if (p.ppid === 1 || found.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** SIGKILLs each process and its group (never the runner's own group). */
export function killAll(processes) {
  const own = table().find((p) => p.pid === process.pid)?.pgrp;
  for (const p of processes) {
    for (const target of [p.pgrp === own ? undefined : -p.pgrp, p.pid]) {
      if (target === undefined) continue;
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // gone already
      }
    }
  }
}
