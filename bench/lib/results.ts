/**
 * The shape of a run's results (bench/results/latest.json) and of each scenario's part in it. A scenario reports
 * its raw rows, the tables it prints, the ratios that matter, and its targets as PASS / FAIL (or not measured).
 */
import type { Machine } from "./machine.js";
import type { Row } from "./measure.js";

export const SCENARIO_NAMES = ["echo", "thousand-tools", "sessions", "startup", "gateway", "search", "scale-out"] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  notes?: string[];
}

export interface Ratio {
  name: string;
  /** > 1 means mcp-host is ahead (faster, or cheaper per request). */
  value: number;
}

export interface TargetCheck {
  id: string;
  text: string;
  /** null: not measured in this run (a peer or concurrency was filtered out, or the scenario is a placeholder). */
  pass: boolean | null;
  measured: string;
}

export interface ScenarioResult {
  name: ScenarioName;
  title: string;
  about: string;
  seconds: number;
  rows: Row[];
  /** Whatever else the scenario measured (memory, start-up times), as plain JSON. */
  data: Record<string, unknown>;
  tables: Table[];
  ratios: Ratio[];
  targets: TargetCheck[];
  /** Wrong answers and failed steps: any entry fails the run. */
  errors: string[];
  notes: string[];
}

export interface RunResults {
  schema: 1;
  machine: Machine;
  options: Record<string, unknown>;
  /** Versions of the peers' packages. */
  peers: Record<string, string>;
  scenarios: ScenarioResult[];
  ok: boolean;
}
