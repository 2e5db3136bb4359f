/**
 * Which top-level sections of the config a reload changes, and which of those only a restart can apply
 * (docs/design.md §11). The list of sections is read off the schema, so a section added to the schema is
 * restart-only until someone makes it live here on purpose: a new section can never be half-applied by default.
 */
import { compareNames } from "../compare.js";
import { type DeploymentConfig, deploymentConfigSchema } from "../config/index.js";
import { canonicalJson } from "../upstream/server-changes.js";

/** A top-level key of the config. */
export type ConfigSection = keyof DeploymentConfig;

/**
 * Every top-level section, in the schema's order.
 * @example
 * CONFIG_SECTIONS.includes("auth") // true
 */
export const CONFIG_SECTIONS: readonly ConfigSection[] = Object.keys(deploymentConfigSchema.shape) as ConfigSection[];

/**
 * The sections a reload applies without a restart: only `servers` (through the gateway's live reconfiguration).
 * @example
 * LIVE_SECTIONS.has("servers") // true
 */
export const LIVE_SECTIONS: ReadonlySet<ConfigSection> = new Set<ConfigSection>(["servers"]);

/**
 * The sections whose values differ (key order inside a section does not count), sorted by name.
 * @example
 * changedSections(running, next) // ["auth", "servers"]
 */
export function changedSections(before: DeploymentConfig, after: DeploymentConfig): ConfigSection[] {
  return CONFIG_SECTIONS.filter((key) => before[key] !== after[key] && canonicalJson(before[key]) !== canonicalJson(after[key])).sort(compareNames);
}

/** What a reload from `before` to `after` must do: change the live sections, or be refused for the restart-only ones. */
export interface ReloadPlan {
  /** Every section that differs, sorted. */
  changed: ConfigSection[];
  /** The changed sections only a restart applies, sorted; when any, the reload is refused as a whole. */
  needsRestart: ConfigSection[];
}

/**
 * @example
 * reloadPlan(running, next) // { changed: ["auth", "servers"], needsRestart: ["auth"] }
 */
export function reloadPlan(before: DeploymentConfig, after: DeploymentConfig): ReloadPlan {
  const changed = changedSections(before, after);
  return { changed, needsRestart: changed.filter((section) => !LIVE_SECTIONS.has(section)) };
}
