import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JoseTokenVerifier } from '../../../shared/adapters/oidc/jose-token-verifier.js';
import { ApiError } from '../../../shared/errors/index.js';
import type { Clock } from '../../../shared/ports/clock.js';
import { type LocalOidcIssuer, startLocalOidcIssuer } from '../../support/local-oidc-issuer.js';

/**
 * The watch function's JWT check (ADR 0125) against a local OIDC issuer: discovery document and
 * JWKS served over HTTP, keys generated here. Every rule API Gateway's JWT authorizer applies.
 */
const NOW = new Date('2026-11-30T12:00:00Z');
const SECONDS = NOW.getTime() / 1000;
const clock: Clock = { now: () => NOW };
const AUDIENCE = ['capless-api', 'capless-cli'];

let issuer: LocalOidcIssuer;

beforeAll(async () => {
  issuer = await startLocalOidcIssuer(clock.now);
});

afterAll(async () => {
  await issuer.close();
});

describe('JoseTokenVerifier', () => {
  const verifier = () => new JoseTokenVerifier({ issuer: issuer.url, audience: AUDIENCE }, clock);

  it.each<[string, () => Promise<string>]>([
    ['a token for one of the audiences', () => issuer.token()],
    ['aud listing several values, one of them ours', () => issuer.token({ claims: { aud: ['other', 'capless-cli'] } })],
    ['no aud, client_id one of the audiences', () => issuer.token({ claims: { aud: undefined, client_id: 'capless-cli' } })],
    ['nbf in the past', () => issuer.token({ claims: { nbf: SECONDS - 10 } })],
  ])('accepts %s', async (_name, make) => {
    const claims = await verifier().verify(await make());
    expect(claims.sub).toBe('alice');
  });

  it.each<[string, () => Promise<string>, string]>([
    ['an expired token', () => issuer.token({ claims: { exp: SECONDS - 1 } }), 'expired'],
    ['a token not yet valid (nbf)', () => issuer.token({ claims: { nbf: SECONDS + 600 } }), 'not valid'],
    ['a token issued in the future (iat)', () => issuer.token({ claims: { iat: SECONDS + 600 } }), 'future'],
    ['another issuer', () => issuer.token({ claims: { iss: 'https://elsewhere.example' } }), 'not valid'],
    ['another audience', () => issuer.token({ claims: { aud: 'someone-else' } }), 'audience'],
    ['aud present but wrong, client_id right (aud wins)', () => issuer.token({ claims: { aud: 'someone-else', client_id: 'capless-api' } }), 'audience'],
    ['neither aud nor client_id', () => issuer.token({ claims: { aud: undefined } }), 'audience'],
    ['a signature by another key under the same kid', () => issuer.token({ key: 'other' }), 'not valid'],
    ['a kid the issuer does not publish', () => issuer.token({ kid: 'key-9' }), 'not valid'],
    ['no kid', () => issuer.token({ kid: null }), 'kid'],
    ['alg none', () => Promise.resolve(issuer.unsigned()), 'not valid'],
    ['something that is not a JWT', () => Promise.resolve('not-a-token'), 'kid'],
  ])('rejects %s with a 401', async (_name, make, message) => {
    const presented = await make();
    const error = await verifier()
      .verify(presented)
      .then(
        () => undefined,
        (rejected: unknown) => rejected,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 401, reason: 'Unauthorized' });
    expect(String(error)).toContain(message);
  });

  it('answers 503 when the issuer cannot be reached, and recovers once it can', async () => {
    let reachable = false;
    const fetchJson = async (url: string): Promise<unknown> => {
      if (!reachable) throw new Error('connect ECONNREFUSED');
      return (await fetch(url)).json();
    };
    const flaky = new JoseTokenVerifier({ issuer: issuer.url, audience: AUDIENCE }, clock, fetchJson);
    const presented = await issuer.token();
    await expect(flaky.verify(presented)).rejects.toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    reachable = true;
    await expect(flaky.verify(presented)).resolves.toMatchObject({ sub: 'alice' });
  });
});
