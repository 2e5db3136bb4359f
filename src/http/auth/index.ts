/**
 * Token verification building blocks (docs/design.md §9): verifiers (JWT on jose, RFC 7662 introspection, custom), the
 * bearer-token middleware with RFC 6750 challenges, and the RFC 9728 protected-resource metadata route. The one
 * entry point for everything under src/http/auth/.
 */
export { bearerAuth, callerOf, type BearerAuthOptions } from "./bearer-auth.js";
export { bearerTokenOf, refuseQueryToken, DEFAULT_MAX_AUTHORIZATION_BYTES } from "./bearer-token.js";
export {
  authFailureResponse,
  bearerChallenge,
  sendAuthFailure,
  writeAuthFailure,
  type AuthFailureResponse,
  type ChallengeOptions,
} from "./challenge.js";
export { customVerifier, type AuthInfoLike, type CustomVerifierOptions, type CustomVerify } from "./custom-verifier.js";
export { introspectionVerifier, type IntrospectionVerifierOptions } from "./introspection-verifier.js";
export { jwtVerifier, type JwtVerifierOptions } from "./jwt-verifier.js";
export {
  protectedResourceMetadata,
  protectedResourceMetadataPath,
  type ProtectedResourceMetadataOptions,
} from "./protected-resource-metadata.js";
export {
  authConfigError,
  insufficientScope,
  missingScopes,
  refusalReasonOf,
  tokenRefused,
  verifierUnavailable,
  type TokenRefusalReason,
} from "./refusals.js";
export {
  protectedResourceMetadataUrl,
  publicRequestUrl,
  publicResourceUrl,
  type AuthRequest,
  type PublicUrlOptions,
} from "./resource-url.js";
export { asOAuthTokenVerifier } from "./sdk-verifier.js";
export { toAuthInfo, type TokenVerifier, type VerifiedCaller } from "./verified-caller.js";
