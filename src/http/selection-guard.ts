/**
 * The last gate before a selection's MCP handler (docs/design.md §8, §9): every request the host's per-selection
 * handler receives — through the app or through a BuiltServer's `server` mounted anywhere else — passes here, after
 * the serverFactory. It checks the Origin (now that a factory's CORS has had its say), verifies the token when the
 * app has auth and nobody verified it yet, takes the raw token off `req.auth` so nothing behind it sees one, and
 * says who the caller is and which toolsets it may reach.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { withoutToken } from "../host/protocol/request-context.js";
import { callerOf } from "./auth/bearer-auth.js";
import type { HostAuth } from "./host-auth.js";
import { originAllowed, originSet, refuseOrigin } from "./dns-rebinding.js";

/** Who is calling and what it may reach, as the selection's handler needs it. */
export interface Admission {
  /** The subject of the verified token (a legacy session is bound to it). */
  subject?: string;
  /** The caller's facts, token removed. */
  authInfo?: AuthInfo;
  /** The declared toolsets the caller may reach (with auth on). */
  permitted?: readonly string[];
}

export interface SelectionGuardOptions {
  /** Check the Origin here (the app's DNS-rebinding protection is on). */
  checkOrigin: boolean;
  allowedOrigins?: readonly string[];
  auth?: HostAuth;
  /** The declared toolset names, now. */
  declared(): readonly string[];
}

type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

/** Runs the bearer gate; true when it let the request through (it answered the request otherwise). */
async function passes(gate: HostAuth["require"], req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  let passed = false;
  await gate(req as never, res as never, (error?: unknown) => {
    if (error !== undefined) throw error;
    passed = true;
  });
  return passed;
}

function subjectOf(req: AuthedRequest): string | undefined {
  const caller = callerOf(req);
  if (caller !== undefined) return caller.subject;
  const auth = req.auth;
  if (auth === undefined) return undefined;
  const subject = auth.extra?.subject;
  return typeof subject === "string" && subject.length > 0 ? subject : auth.clientId;
}

export class SelectionGuard {
  private readonly origins: ReadonlySet<string>;

  constructor(private readonly options: SelectionGuardOptions) {
    this.origins = originSet(options.allowedOrigins);
  }

  /**
   * Admits a request, or answers it (403 Origin, 401/400/503 token) and returns undefined.
   * @example
   * const admission = await guard.admit(req, res); if (!admission) return;
   */
  async admit(req: AuthedRequest, res: ServerResponse): Promise<Admission | undefined> {
    if (this.options.checkOrigin && !originAllowed(req, res, this.origins)) {
      refuseOrigin(res, req.headers.origin ?? "");
      return undefined;
    }
    const auth = this.options.auth;
    if (auth !== undefined && callerOf(req) === undefined && !(await passes(auth.require, req, res))) return undefined;
    if (req.auth !== undefined) req.auth = withoutToken(req.auth);
    const caller = callerOf(req);
    const subject = subjectOf(req);
    return {
      ...(subject === undefined ? {} : { subject }),
      ...(req.auth === undefined ? {} : { authInfo: req.auth }),
      ...(auth === undefined || caller === undefined ? {} : { permitted: auth.permissions.permitted(this.options.declared(), caller.scopes) }),
    };
  }

  /**
   * With auth on, answers 403 when `toolsets` holds one the caller may not reach (a build made without the app's
   * narrowing, served directly) and returns false.
   * @example
   * if (!guard.covers(endpoint.toolsets, admission, req, res)) return;
   */
  covers(toolsets: readonly string[], admission: Admission, req: IncomingMessage, res: ServerResponse): boolean {
    const auth = this.options.auth;
    if (auth === undefined || admission.permitted === undefined) return true;
    const permitted = new Set(admission.permitted);
    const outside = toolsets.filter((t) => !permitted.has(t));
    if (outside.length === 0) return true;
    const granted = new Set(admission.authInfo?.scopes ?? []);
    const needed = auth.permissions.scopesFor(toolsets);
    auth.refuseScopes(
      req,
      res,
      auth.permissions.scopesFor(outside).filter((s) => !granted.has(s)),
      needed,
    );
    return false;
  }
}
