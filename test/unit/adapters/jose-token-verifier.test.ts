import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JoseTokenVerifier } from '../../../shared/adapters/oidc/jose-token-verifier.js';
import { ApiError } from '../../../shared/errors/index.js';
import type { Clock } from '../../../shared/ports/clock.js';

/**
 * The watch function's JWT check (ADR 0125) against a local OIDC issuer: discovery document and
 * JWKS served over HTTP, keys generated here. Every rule API Gateway's JWT authorizer applies.
 */
const NOW = new Date('2026-11-30T12:00:00Z');
const SECONDS = NOW.getTime() / 1000;
const clock: Clock = { now: () => NOW };
const AUDIENCE = ['capless-api', 'capless-cli'];

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let server: Server;
let issuer: string;
let issuerKey: KeyLike;
let otherKey: KeyLike;

beforeAll(async () => {
  const signing = await generateKeyPair('RS256', { extractable: true });
  issuerKey = signing.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(signing.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  server = createServer((request, response) => {
    const body =
      request.url === '/.well-known/openid-configuration'
        ? { issuer, jwks_uri: `${issuer}/keys` }
        : request.url === '/keys'
          ? { keys: [jwk] }
          : undefined;
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface TokenSpec {
  claims?: JWTPayload;
  kid?: string | null;
  key?: 'issuer' | 'other';
  alg?: string;
}

async function token(spec: TokenSpec = {}): Promise<string> {
  const claims: JWTPayload = { iss: issuer, aud: 'capless-api', sub: 'alice', iat: SECONDS - 60, exp: SECONDS + 3600, ...spec.claims };
  const header = { alg: spec.alg ?? 'RS256', ...(spec.kid === null ? {} : { kid: spec.kid ?? 'key-1' }) };
  return new SignJWT(claims).setProtectedHeader(header).sign(spec.key === 'other' ? otherKey : issuerKey);
}

/** An unsigned token (`alg: none`), which jose will not sign. */
function unsigned(claims: JWTPayload): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', kid: 'key-1' })}.${part({ iss: issuer, aud: 'capless-api', sub: 'alice', exp: SECONDS + 3600, ...claims })}.`;
}

describe('JoseTokenVerifier', () => {
  const verifier = () => new JoseTokenVerifier({ issuer, audience: AUDIENCE }, clock);

  it.each<[string, () => Promise<string>]>([
    ['a token for one of the audiences', () => token()],
    ['aud listing several values, one of them ours', () => token({ claims: { aud: ['other', 'capless-cli'] } })],
    ['no aud, client_id one of the audiences', () => token({ claims: { aud: undefined, client_id: 'capless-cli' } })],
    ['nbf in the past', () => token({ claims: { nbf: SECONDS - 10 } })],
  ])('accepts %s', async (_name, make) => {
    const claims = await verifier().verify(await make());
    expect(claims.sub).toBe('alice');
  });

  it.each<[string, () => Promise<string>, string]>([
    ['an expired token', () => token({ claims: { exp: SECONDS - 1 } }), 'expired'],
    ['a token not yet valid (nbf)', () => token({ claims: { nbf: SECONDS + 600 } }), 'not valid'],
    ['a token issued in the future (iat)', () => token({ claims: { iat: SECONDS + 600 } }), 'future'],
    ['another issuer', () => token({ claims: { iss: 'https://elsewhere.example' } }), 'not valid'],
    ['another audience', () => token({ claims: { aud: 'someone-else' } }), 'audience'],
    ['aud present but wrong, client_id right (aud wins)', () => token({ claims: { aud: 'someone-else', client_id: 'capless-api' } }), 'audience'],
    ['neither aud nor client_id', () => token({ claims: { aud: undefined } }), 'audience'],
    ['a signature by another key under the same kid', () => token({ key: 'other' }), 'not valid'],
    ['a kid the issuer does not publish', () => token({ kid: 'key-9' }), 'not valid'],
    ['no kid', () => token({ kid: null }), 'kid'],
    ['alg none', () => Promise.resolve(unsigned({})), 'not valid'],
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
    const flaky = new JoseTokenVerifier({ issuer, audience: AUDIENCE }, clock, fetchJson);
    const presented = await token();
    await expect(flaky.verify(presented)).rejects.toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    reachable = true;
    await expect(flaky.verify(presented)).resolves.toMatchObject({ sub: 'alice' });
  });
});
