import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { stringAt, valueAt } from '../../shared/contracts/json.js';
import { UnauthorizedError } from '../../shared/errors/index.js';
import type { Authenticator, Principal } from './auth.js';
import type { ApiRequest, ApiResponse } from './http.js';

/** API Gateway HTTP API (payload format 2.0) → the transport-neutral request. */
export function requestFromHttpApiEvent(event: APIGatewayProxyEventV2): ApiRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value;
  const body = event.body === undefined ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    query: new URLSearchParams(event.rawQueryString ?? ''),
    headers,
    body,
  };
}

export function httpApiResult(response: ApiResponse): APIGatewayProxyStructuredResultV2 {
  if (response.bytes) {
    return { statusCode: response.status, headers: response.headers, body: Buffer.from(response.bytes).toString('base64'), isBase64Encoded: true };
  }
  return { statusCode: response.status, headers: response.headers, body: response.body };
}

/** The scope a JWT must carry to read Secrets (bootstrap data, CA keys, kubeconfigs). */
export const SECRETS_READ_SCOPE = 'capless/secrets.read';
/** The scope a JWT must carry to create, change or delete Secrets. */
export const SECRETS_WRITE_SCOPE = 'capless/secrets.write';

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
    const subject = stringAt(authorizer, 'jwt', 'claims', 'sub');
    if (subject) {
      const scopes = valueAt(authorizer, 'jwt', 'scopes');
      const scopeClaim = stringAt(authorizer, 'jwt', 'claims', 'scope') ?? '';
      const list = Array.isArray(scopes) ? scopes.map(String) : scopeClaim.split(' ');
      return { name: subject, canReadSecrets: list.includes(SECRETS_READ_SCOPE), canWriteSecrets: list.includes(SECRETS_WRITE_SCOPE) };
    }
    throw new UnauthorizedError('Unauthorized: no authorizer identity on the request');
  };
}
