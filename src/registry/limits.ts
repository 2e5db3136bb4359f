/**
 * The registry's time limits, resolved per server: a spec's own setting, else the registry's, else the default.
 */
import type { RegistryOptions, ServerSpecification } from "./types.js";

/** Idle timeout per request when nobody sets one. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Start-up deadline when nobody sets one. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

/** The limits that apply to each server of one registry. */
export interface Limits {
  /** Idle timeout per request, reset by progress. */
  timeoutOf(spec: ServerSpecification): number;
  /** Cap on a call's whole duration (default: ten times the idle timeout). */
  totalOf(spec: ServerSpecification): number;
  /** The one deadline for connecting and listing every server. */
  startupMs: number;
}

/**
 * Resolves the limits of a registry's options.
 * @example
 * resolveLimits({ callTimeoutMs: 5000 }).totalOf(spec) // 50000 unless the spec sets maxTotalTimeoutMs
 */
export function resolveLimits(options: RegistryOptions): Limits {
  const timeoutOf = (spec: ServerSpecification) => spec.timeoutMs ?? options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  return {
    timeoutOf,
    totalOf: (spec) => spec.maxTotalTimeoutMs ?? options.maxTotalTimeoutMs ?? timeoutOf(spec) * 10,
    startupMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
  };
}
