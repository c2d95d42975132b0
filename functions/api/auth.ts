import { timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../shared/errors/index.js';
import type { ApiRequest } from './http.js';

/**
 * Who is calling, and what they may do with Secrets (bootstrap data, CA keys, kubeconfigs)
 * beyond listing them without their data. See secret-access.ts for the rule per verb.
 */
export interface Principal {
  name: string;
  /** get, and every verb on a named Secret (they all return or reveal its data). */
  canReadSecrets: boolean;
  /** create, update, patch, delete. */
  canWriteSecrets: boolean;
}

/** Resolves the caller of a request or throws UnauthorizedError. Never anonymous. */
export type Authenticator = (request: ApiRequest) => Principal;

export interface BearerToken {
  token: string;
  principal: Principal;
}

/** Bearer tokens (embedded mode: the token written to `<data-dir>/kubeconfig`). */
export function bearerTokenAuthenticator(tokens: readonly BearerToken[]): Authenticator {
  return (request) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const presented = match?.[1];
    if (presented) {
      for (const entry of tokens) if (sameSecret(presented, entry.token)) return entry.principal;
    }
    throw new UnauthorizedError('Unauthorized: a valid bearer token is required');
  };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
