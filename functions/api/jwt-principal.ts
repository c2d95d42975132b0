import { stringAt } from '../../shared/contracts/json.js';
import type { Principal } from './auth.js';

/** The scope a JWT must carry to read Secrets (bootstrap data, CA keys, kubeconfigs). */
export const SECRETS_READ_SCOPE = 'capless/secrets.read';
/** The scope a JWT must carry to create, change or delete Secrets. */
export const SECRETS_WRITE_SCOPE = 'capless/secrets.write';

/**
 * The principal of a verified JWT: named by its `sub`, with the Secret rights its scopes grant —
 * `scopes` when the verifier listed them (API Gateway's `authorizer.jwt.scopes`), else the
 * space-separated `scope` claim. One rule for the API (API Gateway checked the token) and the
 * watch function (it checked the token itself, ADR 0125). Undefined without a `sub`.
 */
export function jwtPrincipal(claims: unknown, scopes?: unknown): Principal | undefined {
  const subject = stringAt(claims, 'sub');
  if (!subject) return undefined;
  const list = Array.isArray(scopes) ? scopes.map(String) : (stringAt(claims, 'scope') ?? '').split(' ');
  return { name: subject, canReadSecrets: list.includes(SECRETS_READ_SCOPE), canWriteSecrets: list.includes(SECRETS_WRITE_SCOPE) };
}
