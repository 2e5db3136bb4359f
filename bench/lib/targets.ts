/**
 * Targets (issues 12 and 18) as PASS / FAIL over measured values. A target holds at every point it names (e.g. every
 * concurrency); when a point was not measured in this run (filtered out), the target is "not measured", never
 * a pass. A host point is judged on mcp-host as users run it (the CLI, default logging) and shows the silent
 * figure (access and audit lines off) beside it.
 */
import type { TargetCheck } from "./results.js";

export interface Point {
  /** e.g. "c=16". */
  where: string;
  /** The measured value, printed, e.g. "2.31×". */
  shown: string;
  ok: boolean;
}

/** PASS when every point is measured and holds. */
export function target(id: string, text: string, points: ReadonlyArray<Point | undefined>): TargetCheck {
  const measured = points.filter((p): p is Point => p !== undefined);
  const shown = measured.map((p) => `${p.where}: ${p.shown}${p.ok ? "" : " ✗"}`).join("; ");
  if (measured.length === 0 || measured.length < points.length) return { id, text, pass: null, measured: shown || "not measured in this run" };
  return { id, text, pass: measured.every((p) => p.ok), measured: shown };
}

/** A point when both values exist, else undefined (not measured). */
export function point(where: string, value: number, ok: (value: number) => boolean, show: (value: number) => string): Point | undefined {
  return Number.isFinite(value) ? { where, shown: show(value), ok: ok(value) } : undefined;
}

/**
 * A point judged on the CLI host's value, with the silent host's value shown beside it.
 * @example
 * hostPoint("c=16", 2.3, 2.8, (v) => v >= 2, ratio)?.shown // "2.30× (silent 2.80×)"
 */
export function hostPoint(where: string, value: number, silent: number, ok: (value: number) => boolean, show: (value: number) => string): Point | undefined {
  const judged = point(where, value, ok, show);
  return judged && { ...judged, shown: `${judged.shown} (silent ${Number.isFinite(silent) ? show(silent) : "–"})` };
}

export function passText(pass: boolean | null): string {
  return pass === null ? "not measured" : pass ? "PASS" : "FAIL";
}
