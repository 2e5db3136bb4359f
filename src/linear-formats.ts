/**
 * JSON Schema `format` checks in linear time. ajv-formats checks most formats with regular expressions of its own,
 * module-level literals that never pass through ajv's `code.regExp`, and some of them backtrack badly (`url`'s
 * domain part, `uri`'s authority). So every format registered as a RegExp is run by the linear engine instead;
 * `uri` (a function around a long RegExp) and the three whose expressions use lookaround (`duration`, `hostname`,
 * `url`) are written out here without it. The remaining function formats (`date`, `time`, `date-time`, `iso-time`,
 * `iso-date-time`, `byte`, `regex`) are kept: their expressions have a fixed shape, with no quantified group that
 * can match the same text two ways, and test/linear-formats.test.ts runs each on its worst inputs.
 */
import { linearRegExp } from "./linear-regexp.js";

/** The part of an ajv instance this needs (structural: the base files load no ajv). */
export interface FormatRegistry {
  formats: Record<string, unknown>;
  addFormat(name: string, format: (value: string) => boolean): unknown;
}

/** ajv-formats' RFC 3986 URI expression (its `uri` format), as source, run here by the linear engine. */
const URI_SOURCE =
  "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

function uri(): (value: string) => boolean {
  const shape = linearRegExp(URI_SOURCE, "i");
  // ajv-formats also asks for a "/" or ":" somewhere, so a bare relative reference is no URI.
  return (value) => (value.includes("/") || value.includes(":")) && shape.test(value);
}

/** ajv-formats' `duration` is `^P(?!$)(…|(\d+W)?)$` with `T(?=\d)`: the lookarounds become two plain checks. */
function duration(): (value: string) => boolean {
  const shape = linearRegExp("^P(?:(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?|(?:\\d+W)?)$");
  return (value) => {
    if (value === "P" || !shape.test(value)) return false;
    const t = value.indexOf("T");
    return t < 0 || (value.charCodeAt(t + 1) >= 48 && value.charCodeAt(t + 1) <= 57);
  };
}

/** ajv-formats' `hostname` begins with `(?=.{1,253}\.?$)`: a length check, here done as one. */
function hostname(): (value: string) => boolean {
  const shape = linearRegExp("^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$", "i");
  return (value) => (value.length <= 253 || (value.length === 254 && value.endsWith("."))) && shape.test(value);
}

/**
 * ajv-formats' `url` (Diego Perini's expression) refuses private IPv4 hosts with three lookaheads. Here: a URL whose
 * host is a name, or one whose host is an IPv4 address and no private one. (It differs from the original only when
 * the user-info part itself holds an "@".)
 */
function url(): (value: string) => boolean {
  const start = "^(?:https?|ftp):\\/\\/(?:\\S+(?::\\S*)?@)?";
  const end = "(?::\\d{2,5})?(?:\\/[^\\s]*)?$";
  const ip = "(?:[1-9]\\d?|1\\d\\d|2[01]\\d|22[0-3])(?:\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])){2}(?:\\.(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4]))";
  const label = "(?:[a-z0-9\\u{00a1}-\\u{ffff}]+-)*[a-z0-9\\u{00a1}-\\u{ffff}]+";
  const name = `${label}(?:\\.${label})*(?:\\.(?:[a-z\\u{00a1}-\\u{ffff}]{2,}))`;
  const privateIp = "(?:(?:10|127)(?:\\.\\d{1,3}){3}|(?:169\\.254|192\\.168)(?:\\.\\d{1,3}){2}|172\\.(?:1[6-9]|2\\d|3[0-1])(?:\\.\\d{1,3}){2})";
  const byName = linearRegExp(`${start}${name}${end}`, "iu");
  const byIp = linearRegExp(`${start}${ip}${end}`, "iu");
  const toPrivateIp = linearRegExp(`${start}${privateIp}`, "iu");
  return (value) => byName.test(value) || (byIp.test(value) && !toPrivateIp.test(value));
}

const WRITTEN_OUT: Record<string, () => (value: string) => boolean> = { uri, duration, hostname, url };

/**
 * Replaces every backtracking format check of `ajv` (after ajv-formats registered its own) with a linear one.
 * Throws if a RegExp format cannot be run in linear time: a new ajv-formats would then need a line here.
 * @example
 * addFormats(ajv); useLinearFormats(ajv);
 */
export function useLinearFormats(ajv: FormatRegistry): void {
  for (const [name, format] of Object.entries(ajv.formats)) {
    const written = WRITTEN_OUT[name];
    if (written !== undefined) ajv.addFormat(name, written());
    else if (format instanceof RegExp) {
      const linear = linearRegExp(format.source, format.flags);
      ajv.addFormat(name, (value) => linear.test(value));
    }
  }
}
