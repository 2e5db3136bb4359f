/**
 * Running a throughput scenario: start every peer's server process (each in its own process, all at once; a peer
 * this checkout cannot run is left out with a note), measure each group of subjects interleaved at each
 * concurrency, close them, and — with --cpu-prof — read the profiled processes' profiles.
 */
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { profileTables, summarizeProfile } from "../lib/cpu-profile.js";
import { measureAt, type Row, type Subject } from "../lib/measure.js";
import { admitted, closePeers, PEER_LABELS, startPeers } from "../lib/peers.js";
import type { Table } from "../lib/results.js";
import type { PeerConfig } from "../servers/peer.js";
import type { ScenarioContext } from "./scenario.js";

export interface Plan {
  config: PeerConfig;
  /** What to measure on this server (its peer process is filled in). */
  subjects: Array<Omit<Subject, "peer">>;
}

export interface ThroughputRun {
  rows: Row[];
  profiles: Table[];
  profileFiles: string[];
  /** What the reader should know about the run (a peer left out, a host that dropped log lines). */
  notes: string[];
}

/** Operations measured together, and at which concurrencies. */
export interface Group {
  ops: ReadonlyArray<Subject["op"]>;
  concurrencies: readonly number[];
}

/**
 * The CPU profiles written into `profileDir` since `before` (its file names then), with the main thread's top
 * self-time items as tables, each labelled by its process (`labels`: pid → label).
 */
export function profilesSince(
  profileDir: string,
  before: ReadonlySet<string>,
  labels: ReadonlyMap<number, string>,
): { profiles: Table[]; profileFiles: string[] } {
  const profiles: Table[] = [];
  const profileFiles: string[] = [];
  for (const name of readdirSync(profileDir).filter((n) => n.endsWith(".cpuprofile") && !before.has(n))) {
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread, the others are tsx's
    // module loader (idle once the server runs) or an isolated tool's worker, so only the main thread's is summarised.
    const [, , , pid, thread] = name.split(".");
    const file = join(profileDir, name);
    profileFiles.push(file);
    if (thread !== "0") continue;
    profiles.push(...profileTables(summarizeProfile(file), `CPU profile of ${labels.get(Number(pid)) ?? `pid ${pid}`} (pid ${pid}, main thread)`));
  }
  return { profiles, profileFiles };
}

/**
 * Measures the plans' subjects: for each group of operations (e.g. calls, then lists), at each of its
 * concurrencies, all of that group's subjects interleaved.
 */
export async function runThroughput(context: ScenarioContext, plans: readonly Plan[], groups: readonly Group[]): Promise<ThroughputRun> {
  const notes: string[] = [];
  const admittedPlans = plans.filter((p) => admitted(p.config.peer, context.options.peers));
  const profileDir = context.profileDir;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const before = new Set(profileDir ? readdirSync(profileDir) : []);
  context.log(`  starting ${admittedPlans.length} server processes`);
  const peers = await startPeers(
    admittedPlans.map((p) => p.config),
    (config) => (profileDir && context.options.profilePeers.includes(config.peer) ? { cpuProfDir: profileDir } : {}),
  );
  const labels = new Map<number, string>();
  const rows: Row[] = [];
  const warmed = new Set<string>();
  try {
    const subjects: Subject[] = admittedPlans.flatMap((plan, i) => plan.subjects.map((s) => ({ ...s, peer: peers[i]! })));
    for (const [i, plan] of admittedPlans.entries()) labels.set(peers[i]!.pid, plan.subjects[0]?.label ?? plan.config.peer);
    for (const group of groups) {
      for (const concurrency of group.concurrencies) {
        const only = context.options.ops;
        const inGroup = subjects.filter((s) => group.ops.includes(s.op) && (only === undefined || only.includes(s.op)));
        if (inGroup.length === 0) continue;
        context.log(` ${group.ops.join("+")} at concurrency ${concurrency}`);
        rows.push(...(await measureAt({ loadgen: context.loadgen, timing: context.options.timing, warmed, log: context.log }, inGroup, concurrency)));
      }
    }
  } finally {
    for (const peer of peers) {
      const drops = peer.dropWarnings ?? 0;
      if (drops > 0)
        notes.push(
          `${PEER_LABELS[peer.config.peer]} warned ${drops} times that it dropped log lines (its stderr pipe was full): its figures include fewer lines than it was asked to write.`,
        );
    }
    await closePeers(peers);
  }
  const { profiles, profileFiles } = profileDir ? profilesSince(profileDir, before, labels) : { profiles: [], profileFiles: [] };
  return { rows, profiles, profileFiles, notes };
}
