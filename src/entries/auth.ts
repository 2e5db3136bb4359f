/**
 * The `mcp-host/auth` entry: the token-verification building blocks (docs/design.md §9) — verifiers for the
 * `auth` option of `createHostApp` / `listenHost` (JWT, introspection, a function of your own), the refusals a
 * custom verifier throws, and `bearerAuth` for a serverFactory's own chain. Exactly what is exported here, by name.
 */
export { bearerAuth, callerOf } from "../http/auth/bearer-auth.js";
export type { BearerAuthOptions } from "../http/auth/bearer-auth.js";
export { jwtVerifier } from "../http/auth/jwt-verifier.js";
export type { JwtVerifierOptions } from "../http/auth/jwt-verifier.js";
export { introspectionVerifier } from "../http/auth/introspection-verifier.js";
export type { IntrospectionVerifierOptions } from "../http/auth/introspection-verifier.js";
export { customVerifier } from "../http/auth/custom-verifier.js";
export type { AuthInfoLike, CustomVerifierOptions, CustomVerify } from "../http/auth/custom-verifier.js";
export { insufficientScope, tokenRefused, verifierUnavailable } from "../http/auth/index.js";
export type { TokenRefusalReason, ProtectedResourceMetadataOptions } from "../http/auth/index.js";
export { protectedResourceMetadata } from "../http/auth/index.js";
export { tokenVerifierFrom } from "../http/auth/host-auth-options.js";
export type { HostAuthOptions, HostIntrospectionOptions } from "../http/auth/host-auth-options.js";
export type { TokenVerifier, VerifiedCaller } from "../http/auth/verified-caller.js";
export type { AuthRequest } from "../http/auth/resource-url.js";
export type { Clock, ClockTimer } from "../clock.js";
