/**
 * What went wrong with an upstream request, in the terms the retry rule needs: was the request never sent (safe to
 * send again), may it have run (never silently re-run), did the server reject it, did it time out, or did the
 * caller abort it. Also a short description: built from error codes, never from a transport's message that could
 * repeat a URL — but a JSON-RPC rejection keeps the server's own words, so callers pass the detail (and only the
 * detail) through the server's redactor. Shared by connecting, listing and calling.
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { isMcpHostError } from "../errors.js";
import { type AnswerRefusalCode, markOf, refusalOf } from "./answers/answer-limits.js";
import type { Redactor } from "./redact.js";

/** The `code` of an error raised because a stdio child was gone before a message could be written (never sent). */
export const CHILD_GONE = "MCP_CHILD_GONE";

/** The kinds of failure the retry rule tells apart. */
export type FailureKind = "not-sent" | "maybe-ran" | "rejected" | "timeout" | "aborted";

/** A classified failure; `detail` never names the server (the caller's framing does) and may quote it. */
export interface Failure {
  kind: FailureKind;
  detail: string;
  /** The JSON-RPC error code, for a rejection. */
  rpcCode?: number;
  /** Set when the registry refused the answer (too large, too deep): the code the caller's error carries. */
  refused?: AnswerRefusalCode;
}

const NOT_SENT_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connect timeout",
  EPIPE: "broken pipe",
  ERR_STREAM_DESTROYED: "broken pipe",
  ERR_STREAM_WRITE_AFTER_END: "broken pipe",
  [CHILD_GONE]: "the server process had exited",
};
// A reset after the request was written is ambiguous: over HTTP a server that dies mid-call looks exactly like this.
const MAYBE_RAN_CODES: Record<string, string> = {
  ECONNRESET: "connection reset",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CLOSED: "connection closed",
};

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR");
}

/**
 * Sorts an upstream failure for the retry rule and gives it a safe description.
 * @example
 * classifyFailure(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "…", { status: 404 })).kind // "not-sent"
 */
export function classifyFailure(error: unknown): Failure {
  const refused = refusalOf(error);
  if (refused !== undefined) return { kind: "rejected", detail: error instanceof Error ? error.message : refused, refused };
  if (isMcpHostError(error)) return { kind: "rejected", detail: error.message };
  // The registry's own answer for a stream that ended without one: the request may have run.
  if (error instanceof ProtocolError && markOf(error) === "MCP_CALL_FAILED") return { kind: "maybe-ran", detail: error.message };
  if (error instanceof ProtocolError) {
    const message = error.message.replace(/^MCP error -?\d+: /, ""); // 2025-era servers repeat the code in the message
    return { kind: "rejected", detail: `JSON-RPC error ${error.code}: ${message}`, rpcCode: error.code };
  }
  if (error instanceof SdkHttpError) {
    const status: unknown = error.status;
    if (status === 404) return { kind: "not-sent", detail: "the HTTP session expired (HTTP 404)" };
    return { kind: "rejected", detail: `the server answered HTTP ${String(status ?? "error")}` };
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return { kind: "timeout", detail: "timed out" };
      case SdkErrorCode.ConnectionClosed:
        return { kind: "maybe-ran", detail: "the connection closed while the request was in flight" };
      case SdkErrorCode.NotConnected:
        return { kind: "not-sent", detail: "not connected" };
      default:
        break;
    }
  }
  if (isAbort(error)) return { kind: "aborted", detail: "cancelled" };
  const codes = causeCodes(error);
  for (const code of codes) if (NOT_SENT_CODES[code]) return { kind: "not-sent", detail: NOT_SENT_CODES[code] };
  for (const code of codes) if (MAYBE_RAN_CODES[code]) return { kind: "maybe-ran", detail: MAYBE_RAN_CODES[code] };
  if (error instanceof Error && error.message === "Not connected") return { kind: "not-sent", detail: "not connected" };
  if (error instanceof SdkError) return { kind: "maybe-ran", detail: `${error.code.toLowerCase().replace(/_/g, " ")}` };
  return { kind: "maybe-ran", detail: error instanceof Error && error.name !== "Error" ? error.name : "request failed" };
}

/**
 * The detail of a failure, safe to show: classified, then its foreign words redacted with the server's redactor.
 * @example
 * `server "${name}" could not be listed: ${failureDetail(error, upstream.redact)}`
 */
export function failureDetail(error: unknown, redact: Redactor): string {
  return redact(classifyFailure(error).detail);
}
