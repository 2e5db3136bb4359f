/**
 * The suite's command line. `npm run bench` runs every scenario at full length; `--quick` runs each measurement
 * for about a second (numbers are rough, correctness checks are the same); `--smoke` for a few calls (the smoke tests
 * of `npm test`: numbers mean nothing); `--scenario` picks one
 * or more; `--concurrency` and `--peers` narrow a run (for a profile or a quick look).
 *
 *   npm run bench -- [--quick | --smoke] [--scenario echo[,sessions]] [--concurrency 16] [--peers mcp-host,sdk-v2]
 *                    [--rounds N] [--seconds S] [--out DIR] [--cpu-prof [--profile-peers mcp-host,sdk-v2]]
 *                    [--ops call] [--compare-cli ../main/dist/cli/main.js]
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PEER_IDS } from "../servers/peer.js";
import type { Op } from "./loadgen-protocol.js";
import type { Timing } from "./measure.js";
import { SCENARIO_NAMES, type ScenarioName } from "./results.js";

export interface Options {
  quick: boolean;
  /** `--smoke`: windows of a few calls, targets not judged (the smoke tests of `npm test`). */
  smoke: boolean;
  scenarios: ScenarioName[];
  /** Where latest.json and latest.md go (default bench/results). */
  out: string;
  /** Only these concurrencies (where a scenario has several). */
  concurrency?: number[];
  /** Only these peers (mcp-host is always needed for the ratios, but may be left out too). */
  peers?: string[];
  /** Only these operations (call, list, churn), so a profile holds one kind of request. */
  ops?: string[];
  timing: Timing;
  /** Profile server processes (V8 --cpu-prof) and print the top self-time items. */
  cpuProf: boolean;
  /** Which peers' processes --cpu-prof profiles (default: mcp-host). */
  profilePeers: string[];
  /** Scenario 5: another build's CLI (its `dist/cli/main.js`) whose gateways are measured in the same run. */
  compareCli?: string;
}

const OPS: readonly string[] = ["call", "list", "churn"] satisfies Op[];

export const FULL_TIMING: Timing = { measureMs: 2000, warmupMs: 500, firstWarmupMs: 3000, rounds: 4 };
export const QUICK_TIMING: Timing = { measureMs: 750, warmupMs: 250, firstWarmupMs: 500, rounds: 2 };
/**
 * `--smoke`: every window as short as can be — each worker still makes at least one checked call per window — so a
 * scenario's smoke test in `npm test` checks that it runs and answers right, whatever the machine's load; its
 * numbers mean nothing (speed is `npm run bench`'s to judge).
 */
export const SMOKE_TIMING: Timing = { measureMs: 40, warmupMs: 10, firstWarmupMs: 40, rounds: 2 };

export const DEFAULT_OUT = fileURLToPath(new URL("../results", import.meta.url));

function list(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  return parts.length ? parts : undefined;
}

function positive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} must be a positive number, got "${value}"`);
  return n;
}

export function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      quick: { type: "boolean" },
      smoke: { type: "boolean" },
      scenario: { type: "string", multiple: true },
      concurrency: { type: "string" },
      peers: { type: "string" },
      ops: { type: "string" },
      rounds: { type: "string" },
      seconds: { type: "string" },
      out: { type: "string" },
      "cpu-prof": { type: "boolean" },
      "profile-peers": { type: "string" },
      "compare-cli": { type: "string" },
    },
  });
  const scenarios = list(values.scenario) ?? [...SCENARIO_NAMES];
  for (const name of scenarios) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(name)) throw new Error(`unknown scenario "${name}"; the scenarios are ${SCENARIO_NAMES.join(", ")}`);
  }
  const peers = list(values.peers);
  const ops = list(values.ops);
  for (const op of ops ?? []) {
    if (!OPS.includes(op)) throw new Error(`unknown operation "${op}"; the operations are ${OPS.join(", ")}`);
  }
  const profilePeers = list(values["profile-peers"]) ?? ["mcp-host"];
  for (const name of [...(peers ?? []), ...profilePeers]) {
    if (!(PEER_IDS as readonly string[]).includes(name)) throw new Error(`unknown peer "${name}"; the peers are ${PEER_IDS.join(", ")}`);
  }
  const concurrency = list(values.concurrency)?.map((c) => {
    const n = Number(c);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--concurrency takes whole numbers, got "${c}"`);
    return n;
  });
  const compareCli = values["compare-cli"] === undefined ? undefined : resolve(values["compare-cli"]);
  if (compareCli !== undefined && !existsSync(compareCli)) throw new Error(`--compare-cli: no built CLI at ${compareCli} (build that checkout first)`);
  const smoke = values.smoke ?? false;
  const quick = (values.quick ?? false) || smoke;
  const base = smoke ? SMOKE_TIMING : quick ? QUICK_TIMING : FULL_TIMING;
  const seconds = positive(values.seconds, "seconds");
  const rounds = positive(values.rounds, "rounds");
  return {
    quick,
    smoke,
    scenarios: scenarios as ScenarioName[],
    out: values.out ?? DEFAULT_OUT,
    ...(concurrency ? { concurrency } : {}),
    ...(peers ? { peers } : {}),
    ...(ops ? { ops } : {}),
    timing: { ...base, ...(seconds ? { measureMs: seconds * 1000 } : {}), ...(rounds ? { rounds: Math.round(rounds) } : {}) },
    cpuProf: values["cpu-prof"] ?? false,
    profilePeers,
    ...(compareCli ? { compareCli } : {}),
  };
}
