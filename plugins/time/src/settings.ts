/**
 * The time extension's settings: which zone stands in when a call names none. It comes from the deployment's
 * options (`extensions.options.time.defaultZone`) and otherwise is the server process's own zone.
 */
import { resolveZone } from "./zones.js";

export interface TimeOptions {
  /** IANA zone used when a call gives no time zone; default: the server's local zone. */
  defaultZone?: string;
}

/** Mutable holder the tools read; `setup` fills it, so one extension object serves one host. */
export interface TimeSettings {
  defaultZone: string;
}

/** The server process's own zone, by current IANA name. */
export function localZone(): string {
  const resolved = resolveZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC");
  return resolved.ok ? resolved.zone : "UTC";
}

/**
 * Reads options; throws on a bad `defaultZone` so the host reports the extension as failed with the reason.
 * @example
 * readSettings({ defaultZone: "Europe/Paris" }) // { defaultZone: "Europe/Paris" }
 */
export function readSettings(options: Readonly<Record<string, unknown>>): TimeSettings {
  const wanted = options.defaultZone;
  if (wanted === undefined) return { defaultZone: localZone() };
  if (typeof wanted !== "string") throw new Error(`option "defaultZone" must be an IANA zone name (a string), got ${JSON.stringify(wanted)}`);
  const resolved = resolveZone(wanted);
  if (!resolved.ok) throw new Error(`option "defaultZone": ${resolved.message}`);
  return { defaultZone: resolved.zone };
}
