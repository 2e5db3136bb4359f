/**
 * Our verifiers seen through the SDK's `OAuthTokenVerifier` seam, for code that uses the SDK's own bearer helpers
 * (`requireBearerAuth`, `verifyBearerToken`). Our coded refusals become the SDK's OAuth errors: invalid token,
 * insufficient scope, and server error for an outage (the SDK has no 503).
 */
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import { isMcpHostError } from "../../errors.js";
import { refusalReasonOf } from "./refusals.js";
import { toAuthInfo, type TokenVerifier } from "./verified-caller.js";

/**
 * An SDK `OAuthTokenVerifier` over one of our verifiers.
 * @example
 * app.use("/mcp", requireBearerAuth({ verifier: asOAuthTokenVerifier(jwtVerifier({ issuer, audience, jwksUri })) }));
 */
export function asOAuthTokenVerifier(verifier: TokenVerifier): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      try {
        return toAuthInfo(await verifier.verify(token), token);
      } catch (error) {
        if (isMcpHostError(error, "AUTH_INSUFFICIENT_SCOPE")) throw new OAuthError(OAuthErrorCode.InsufficientScope, "The access token lacks a required scope");
        if (isMcpHostError(error, "AUTH_TOKEN_INVALID")) {
          throw new OAuthError(
            OAuthErrorCode.InvalidToken,
            refusalReasonOf(error) === "expired" ? "The access token has expired" : "The access token is invalid",
          );
        }
        throw new OAuthError(OAuthErrorCode.ServerError, "Access tokens cannot be verified right now");
      }
    },
  };
}
