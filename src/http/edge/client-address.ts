/**
 * The caller's address (docs/design.md §8, config `http.trustProxy`): the socket peer, unless a proxy the deployment
 * trusts stands in front, in which case it is the client that proxy forwarded for (`X-Forwarded-For`) — and the
 * scheme it was reached by (`X-Forwarded-Proto`, `Forwarded: proto=`) counts only from such a proxy. Express's own
 * semantics and vocabulary (`false`, `true`, a hop count, or addresses, CIDRs and `loopback`, `linklocal`,
 * `uniquelocal`), through `proxy-addr`, the library express itself uses: a header from a peer nobody trusts changes
 * nothing. The TCP connection caps stay on the socket peer (server-limits.ts): a connection is the peer's.
 */
import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";
import { McpHostError } from "../../errors.js";

/**
 * `http.trustProxy`: which peers may say who the client is, as express's `trust proxy`.
 * @example
 * const trustProxy: TrustProxySetting = ["10.0.0.10"]; // nginx's address; or 1 (one hop), true, "loopback"…
 */
export type TrustProxySetting = boolean | number | readonly string[];

/** Whether the hop at `index` (0: the socket peer) with `address` is a proxy to believe. */
export type TrustProxy = (address: string, index: number) => boolean;

/** Trusts nobody: the caller is the socket peer (the default). */
export const TRUST_NONE: TrustProxy = () => false;

/**
 * Why an entry of a trust list is refused, or undefined when proxy-addr accepts it.
 * @example
 * trustEntryProblem("10.0.0.0/33") // 'is not an address, a CIDR or one of loopback, linklocal, uniquelocal …'
 */
export function trustEntryProblem(entry: string): string | undefined {
  try {
    proxyAddr.compile([entry]);
    return undefined;
  } catch {
    return 'is not an address, a CIDR or one of loopback, linklocal, uniquelocal; write e.g. "10.0.0.0/8" or "loopback"';
  }
}

/**
 * Compiles the setting once, as express compiles `trust proxy`.
 * @example
 * compileTrustProxy(["loopback", "10.0.0.0/8"])("127.0.0.1", 0) // true
 * compileTrustProxy(1)("203.0.113.7", 0) // true: one hop, whoever it is
 */
export function compileTrustProxy(setting: TrustProxySetting | undefined): TrustProxy {
  if (setting === undefined || setting === false) return TRUST_NONE;
  if (setting === true) return () => true;
  if (typeof setting === "number") return (_address, index) => index < setting;
  for (const entry of setting) {
    const problem = typeof entry === "string" ? trustEntryProblem(entry) : "is not a string";
    if (problem !== undefined) throw new McpHostError("CONFIG_INVALID", `http.trustProxy: ${JSON.stringify(entry)} ${problem}`);
  }
  return setting.length === 0 ? TRUST_NONE : proxyAddr.compile([...setting]);
}

/**
 * The caller's address: the socket peer, or the nearest untrusted address in `X-Forwarded-For` behind trusted hops.
 * @example
 * clientAddressOf(req, compileTrustProxy(["127.0.0.1"])) // "203.0.113.7" when nginx on 127.0.0.1 forwarded for it
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return "unknown";
  if (trust === TRUST_NONE) return peer;
  return proxyAddr(req, trust);
}

/** The first value of a proto in a `Forwarded` header (RFC 7239), if it names one. */
function forwardedProto(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const first = header.split(",")[0] ?? "";
  const match = /(?:^|;)\s*proto\s*=\s*"?([A-Za-z]+)"?\s*(?:;|$)/i.exec(first);
  return match?.[1];
}

/**
 * The scheme the client used: `https` on a TLS socket, else `http` — unless the socket peer is a trusted proxy,
 * whose `X-Forwarded-Proto` (first value, as express reads it) or `Forwarded: proto=` says.
 * @example
 * clientProtocolOf(req, compileTrustProxy(["loopback"])) // "https" behind nginx sending X-Forwarded-Proto: https
 */
export function clientProtocolOf(req: IncomingMessage, trust: TrustProxy): "http" | "https" {
  const own = (req.socket as { encrypted?: boolean }).encrypted === true ? "https" : "http";
  const peer = req.socket.remoteAddress;
  if (trust === TRUST_NONE || peer === undefined || !trust(peer, 0)) return own;
  const xfp = req.headers["x-forwarded-proto"];
  const given = (typeof xfp === "string" ? xfp.split(",")[0] : undefined) ?? forwardedProto(req.headers.forwarded);
  const proto = given?.trim().toLowerCase();
  return proto === "https" || proto === "http" ? proto : own;
}
