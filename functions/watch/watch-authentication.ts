import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { UnauthorizedError } from '../../shared/errors/index.js';
import type { TokenVerifier } from '../../shared/ports/token-verifier.js';
import type { Authenticator } from '../api/auth.js';
import { authorizerPrincipal } from '../api/aws-event.js';
import type { ApiRequest } from '../api/http.js';
import { jwtPrincipal } from '../api/jwt-principal.js';

/**
 * Where the watch function reads the caller's bearer token in JWT mode (ADR 0125). Not
 * `Authorization`: CloudFront's origin access control signs every request to the function URL
 * and so overwrites that header; the front door's viewer-request function copies the viewer's
 * `Authorization` here, and a caller of the function URL itself sends its token here beside its
 * SigV4 signature.
 */
export const FORWARDED_AUTHORIZATION_HEADER = 'x-capless-authorization';

/** The watch function's environment in JWT mode (unset in IAM mode): what the HTTP API's JWT authorizer is given. */
export const WATCH_JWT_ENV = {
  /** The OIDC issuer URL. */
  issuer: 'JWT_ISSUER',
  /** JSON array of the accepted audiences. */
  audience: 'JWT_AUDIENCE',
} as const;

/** Resolves who is calling before the watch is served; rejects with UnauthorizedError (or UnavailableError). */
export type WatchAuthentication = (event: APIGatewayProxyEventV2, request: ApiRequest) => Promise<Authenticator>;

/** IAM mode: the function URL's AWS_IAM auth checked the SigV4 caller; its ARN is the principal (ADR 0080). */
export const iamWatchAuthentication: WatchAuthentication = async (event) => authorizerPrincipal(event);

/**
 * JWT mode: the URL's IAM auth only proves the request came through CloudFront (or a caller IAM
 * lets invoke it), so the function checks the bearer token itself, with the issuer and audience
 * the HTTP API's JWT authorizer uses, and derives the principal as the API does. Never anonymous.
 */
export function jwtWatchAuthentication(verifier: TokenVerifier): WatchAuthentication {
  return async (_event, request) => {
    const header = request.headers[FORWARDED_AUTHORIZATION_HEADER] ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token) throw new UnauthorizedError(`Unauthorized: a bearer token is required (the ${FORWARDED_AUTHORIZATION_HEADER} header)`);
    const principal = jwtPrincipal(await verifier.verify(token));
    if (!principal) throw new UnauthorizedError('Unauthorized: the token names no subject (sub)');
    return () => principal;
  };
}
