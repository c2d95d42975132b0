import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export interface TokenSpec {
  /** Merged over `iss`, `aud: 'capless-api'`, `sub: 'alice'`, `iat` a minute ago, `exp` in an hour; `undefined` drops a claim. */
  claims?: JWTPayload;
  /** `null`: no `kid` header. */
  kid?: string | null;
  /** `other`: a key the issuer does not publish, under the published `kid`. */
  key?: 'issuer' | 'other';
}

/** An OIDC issuer on 127.0.0.1: discovery document and JWKS (one RS256 key, `kid: key-1`), and tokens signed with it. */
export interface LocalOidcIssuer {
  url: string;
  token(spec?: TokenSpec): Promise<string>;
  /** An unsigned token (`alg: none`), which jose refuses to sign. */
  unsigned(claims?: JWTPayload): string;
  close(): Promise<void>;
}

export async function startLocalOidcIssuer(now: () => Date = () => new Date()): Promise<LocalOidcIssuer> {
  const signing = await generateKeyPair('RS256', { extractable: true });
  const other: PrivateKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(signing.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  let url = '';
  const server = createServer((request, response) => {
    const body = request.url === '/.well-known/openid-configuration' ? { issuer: url, jwks_uri: `${url}/keys` } : request.url === '/keys' ? { keys: [jwk] } : undefined;
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const seconds = () => Math.floor(now().getTime() / 1000);
  const defaults = (): JWTPayload => ({ iss: url, aud: 'capless-api', sub: 'alice', iat: seconds() - 60, exp: seconds() + 3600 });
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    url,
    token: (spec = {}) => {
      const header = { alg: 'RS256', ...(spec.kid === null ? {} : { kid: spec.kid ?? 'key-1' }) };
      return new SignJWT({ ...defaults(), ...spec.claims }).setProtectedHeader(header).sign(spec.key === 'other' ? other : signing.privateKey);
    },
    unsigned: (claims = {}) => `${part({ alg: 'none', kid: 'key-1' })}.${part({ ...defaults(), ...claims })}.`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
