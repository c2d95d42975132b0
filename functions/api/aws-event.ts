import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { stringAt, valueAt } from '../../shared/contracts/json.js';
import { UnauthorizedError } from '../../shared/errors/index.js';
import type { Authenticator, Principal } from './auth.js';
import { jwtPrincipal } from './jwt-principal.js';
import type { ApiRequest, ApiResponse } from './http.js';

/** API Gateway HTTP API (payload format 2.0) → the transport-neutral request. */
export function requestFromHttpApiEvent(event: APIGatewayProxyEventV2): ApiRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value;
  const bytes = event.body !== undefined && event.isBase64Encoded ? Buffer.from(event.body, 'base64') : undefined;
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    query: new URLSearchParams(event.rawQueryString ?? ''),
    headers,
    body: bytes ? bytes.toString('utf8') : (event.body ?? ''),
    ...(bytes ? { bodyBytes: bytes } : {}),
  };
}

export function httpApiResult(response: ApiResponse): APIGatewayProxyStructuredResultV2 {
  if (response.bytes) {
    return { statusCode: response.status, headers: response.headers, body: Buffer.from(response.bytes).toString('base64'), isBase64Encoded: true };
  }
  return { statusCode: response.status, headers: response.headers, body: response.body };
}

/**
 * On AWS, API Gateway's authorizer has already checked the caller (IAM SigV4 per route, or a
 * JWT). IAM decides per route and method (ManagementApi's grant methods keep every verb on the
 * Secret routes apart), so an IAM caller that reached a Secret route was allowed that verb; a JWT
 * caller needs the secrets scopes.
 */
export function authorizerPrincipal(event: APIGatewayProxyEventV2): Authenticator {
  return () => {
    const authorizer: unknown = Reflect.get(event.requestContext, 'authorizer');
    const iamArn = stringAt(authorizer, 'iam', 'userArn');
    if (iamArn) return { name: iamArn, canReadSecrets: true, canWriteSecrets: true } satisfies Principal;
    const jwt = jwtPrincipal(valueAt(authorizer, 'jwt', 'claims'), valueAt(authorizer, 'jwt', 'scopes'));
    if (jwt) return jwt;
    throw new UnauthorizedError('Unauthorized: no authorizer identity on the request');
  };
}
