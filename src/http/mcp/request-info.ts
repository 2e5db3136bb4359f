/**
 * What the host knows of one 2026-07-28 request, as its handlers see it (`ctx.selection`, `ctx.auth`): the build's
 * toolsets, the names nobody declared, what the caller may reach, the verified caller. One function, so the SDK
 * entry's per-request server and the fast path's pooled one give a handler the same view.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { BuildCore } from "../../host/build/compiled-build.js";
import type { ServeRequestInfo } from "../../host/protocol/request-context.js";
import type { RequestFacts } from "../edge/request-facts.js";
import { defined } from "../../defined.js";

/**
 * @example
 * createSdkServer(build.protocol, requestInfoOf(build, facts, "modern", ctx.authInfo));
 */
export function requestInfoOf(build: BuildCore, facts: RequestFacts | undefined, era: "modern" | "legacy", authInfo: AuthInfo | undefined): ServeRequestInfo {
  const seen = authInfo ?? facts?.authInfo;
  return {
    era,
    selection: {
      active: build.toolsets,
      unknown: facts?.unknown ?? [],
      ...defined({ permitted: facts?.permitted }),
    },
    ...(seen ? { authInfo: seen } : {}),
  };
}
