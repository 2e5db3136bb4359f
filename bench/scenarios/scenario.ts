/**
 * What a scenario is to the runner: a name, a title and a paragraph on what it measures and why, and a `run`
 * that measures and returns its part of the results.
 */
import type { LoadGenerator } from "../lib/loadgen-client.js";
import type { Options } from "../lib/options.js";
import type { ScenarioName, ScenarioResult } from "../lib/results.js";

export interface ScenarioContext {
  options: Options;
  loadgen: LoadGenerator;
  /** Progress lines (stderr). */
  log(line: string): void;
  /** Where V8 CPU profiles of mcp-host go, with --cpu-prof. */
  profileDir?: string;
}

export type ScenarioOutcome = Omit<ScenarioResult, "name" | "title" | "about" | "seconds">;

export interface Scenario {
  name: ScenarioName;
  title: string;
  about: string;
  run(context: ScenarioContext): Promise<ScenarioOutcome>;
}

export function emptyOutcome(): ScenarioOutcome {
  return { rows: [], data: {}, tables: [], ratios: [], targets: [], errors: [], notes: [] };
}

/** The concurrencies a scenario measures, after --concurrency. */
export function concurrencies(context: ScenarioContext, all: readonly number[]): number[] {
  const only = context.options.concurrency;
  return only ? all.filter((c) => only.includes(c)) : [...all];
}
