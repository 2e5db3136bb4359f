/**
 * The rules of `http:` that one key's schema cannot express: a whole request cannot be given less time than its
 * headers (`http.requestTimeoutMs` at least `http.headersTimeoutMs`; Node refuses the reverse), a cap per
 * client address above the cap in all would never apply, and every address `http.trustProxy` lists must be one
 * `proxy-addr` (express's parser of it) reads.
 */
import { createRequire } from "node:module";
import type { PathProblem } from "./problems.js";
import { HTTP_TIMING_DEFAULTS, isRecord } from "./schema-parts.js";

function numberOr(value: unknown, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/**
 * @example
 * httpProblems({ headersTimeoutMs: 20_000, requestTimeoutMs: 5_000 }) // one problem at http.requestTimeoutMs
 */
export function httpProblems(http: unknown): PathProblem[] {
  if (!isRecord(http)) return [];
  const out: PathProblem[] = [];
  const headers = numberOr(http.headersTimeoutMs, HTTP_TIMING_DEFAULTS.headersTimeoutMs);
  const request = numberOr(http.requestTimeoutMs, HTTP_TIMING_DEFAULTS.requestTimeoutMs);
  if (headers !== undefined && request !== undefined && request < headers) {
    out.push({
      code: "CONFIG_INVALID",
      path: ["http", "requestTimeoutMs"],
      message: `must be at least http.headersTimeoutMs (${headers}): a request's headers are part of it`,
    });
  }
  const all = numberOr(http.maxConnections, HTTP_TIMING_DEFAULTS.maxConnections);
  // Only a cap per address the file sets is compared with the total; the default is left to apply as it is.
  const perAddress = http.maxConnectionsPerAddress === undefined ? undefined : numberOr(http.maxConnectionsPerAddress, 0);
  if (all !== undefined && perAddress !== undefined && perAddress > all) {
    out.push({
      code: "CONFIG_INVALID",
      path: ["http", "maxConnectionsPerAddress"],
      message: `must be at most http.maxConnections (${all}); to cap only the total, set both to the same number`,
    });
  }
  out.push(...trustProxyProblems(http.trustProxy));
  return out;
}

/** proxy-addr's parser, loaded only for a config that lists proxies: `mcp-host stdio` and most configs never do. */
function compileTrust(entries: string[]): void {
  const proxyAddr = createRequire(import.meta.url)("proxy-addr") as typeof import("proxy-addr");
  proxyAddr.compile(entries);
}

/** Each entry of a `trustProxy` list that is not an address, a CIDR or a range name. */
function trustProxyProblems(trust: unknown): PathProblem[] {
  if (!Array.isArray(trust)) return [];
  return trust.flatMap((entry, i) => {
    if (typeof entry !== "string" || entry === "") return [];
    try {
      compileTrust([entry]);
      return [];
    } catch {
      return [
        {
          code: "CONFIG_INVALID",
          path: ["http", "trustProxy", i],
          message: `${JSON.stringify(entry)} is not an address, a CIDR or one of loopback, linklocal, uniquelocal; write e.g. "10.0.0.0/8" or "loopback"`,
        },
      ];
    }
  });
}
