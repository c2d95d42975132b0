/** The claims of a bearer token whose signature, issuer, audience and lifetime were checked. */
export type VerifiedClaims = Readonly<Record<string, unknown>>;

/**
 * Checks a bearer token (a JWT from the configured OIDC issuer) and returns its claims; rejects
 * with UnauthorizedError when the token is malformed, unsigned, signed by another key, expired,
 * not yet valid, or from another issuer or audience; rejects with UnavailableError when the
 * issuer's keys cannot be fetched (the caller may retry).
 */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedClaims>;
}
