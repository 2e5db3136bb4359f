/**
 * The rules of `http:` that one key's schema cannot express: a whole request cannot be given less time than its
 * headers (`http.requestTimeoutMs` at least `http.headersTimeoutMs`; Node refuses the reverse), and a cap per
 * client address above the cap in all would never apply.
 */
import type { PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";

const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_CONNECTIONS = 4_096;
const DEFAULT_PER_ADDRESS = 256;

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
  const headers = numberOr(http.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const request = numberOr(http.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
  if (headers !== undefined && request !== undefined && request < headers) {
    out.push({
      code: "CONFIG_INVALID",
      path: ["http", "requestTimeoutMs"],
      message: `must be at least http.headersTimeoutMs (${headers}): a request's headers are part of it`,
    });
  }
  const all = numberOr(http.maxConnections, DEFAULT_MAX_CONNECTIONS);
  const perAddress = numberOr(http.maxConnectionsPerAddress, DEFAULT_PER_ADDRESS);
  if (all !== undefined && perAddress !== undefined && perAddress > all && http.maxConnectionsPerAddress !== undefined) {
    out.push({
      code: "CONFIG_INVALID",
      path: ["http", "maxConnectionsPerAddress"],
      message: `must be at most http.maxConnections (${all}); to cap only the total, set both to the same number`,
    });
  }
  return out;
}
