import { createRemoteJWKSet, decodeProtectedHeader, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { z } from 'zod';
import { UnauthorizedError, UnavailableError } from '../../errors/index.js';
import type { Clock } from '../../ports/clock.js';
import type { TokenVerifier, VerifiedClaims } from '../../ports/token-verifier.js';

/** What API Gateway's HTTP API JWT authorizer is configured with (ADR 0125 mirrors its checks). */
export interface JwtIssuerConfig {
  /** The `iss` a token must carry; its OIDC discovery document names the keys. */
  issuer: string;
  /** A token's `aud` (or, without `aud`, its `client_id`) must be one of these. */
  audience: readonly string[];
}

/** API Gateway's JWT authorizer supports RSA signatures only. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512'];

const DISCOVERY = z.object({ jwks_uri: z.url() });

/** Discovery and key fetches give up after this long; the caller gets a 503 and retries. */
const FETCH_TIMEOUT_MS = 5_000;

/**
 * Verifies bearer JWTs as API Gateway's HTTP API JWT authorizer does: the keys come from the
 * `jwks_uri` of the issuer's `/.well-known/openid-configuration`; the token needs a `kid` naming
 * one of them and an RSA signature; `iss` must equal the issuer; `aud` must name one of the
 * audiences, or, only when `aud` is absent, `client_id` must; `exp` must be in the future and
 * `nbf` and `iat` not. Keys are cached per container (jose refetches on an unknown `kid`).
 */
export class JoseTokenVerifier implements TokenVerifier {
  private keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(
    private readonly config: JwtIssuerConfig,
    private readonly clock: Clock,
    private readonly fetchJson: (url: string) => Promise<unknown> = fetchJsonWithTimeout,
  ) {}

  async verify(token: string): Promise<VerifiedClaims> {
    const kid = keyIdOf(token);
    if (!kid) throw new UnauthorizedError('Unauthorized: the bearer token is not a JWT with a key id (kid)');
    const keys = await this.issuerKeys();
    try {
      const now = this.clock.now();
      const { payload } = await jwtVerify(token, keys, { issuer: this.config.issuer, algorithms: ALGORITHMS, currentDate: now });
      if (typeof payload.iat === 'number' && payload.iat > now.getTime() / 1000) {
        throw new UnauthorizedError('Unauthorized: the token was issued in the future (iat)');
      }
      if (!this.audienceMatches(payload)) throw new UnauthorizedError('Unauthorized: the token is for another audience (aud, client_id)');
      return payload;
    } catch (error) {
      throw classify(error);
    }
  }

  private audienceMatches(payload: Readonly<Record<string, unknown>>): boolean {
    const { aud } = payload;
    if (aud !== undefined) {
      const values = Array.isArray(aud) ? aud : [aud];
      return values.some((value) => typeof value === 'string' && this.config.audience.includes(value));
    }
    const clientId = payload.client_id;
    return typeof clientId === 'string' && this.config.audience.includes(clientId);
  }

  private issuerKeys(): Promise<JWTVerifyGetKey> {
    this.keys ??= this.discoverKeys().catch((error: unknown) => {
      this.keys = undefined;
      throw new UnavailableError(`the token issuer's keys could not be fetched: ${String(error)}`, { cause: error });
    });
    return this.keys;
  }

  private async discoverKeys(): Promise<JWTVerifyGetKey> {
    const discoveryUrl = `${this.config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const discovery = DISCOVERY.parse(await this.fetchJson(discoveryUrl));
    return createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS });
  }
}

function keyIdOf(token: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === 'string' && kid !== '' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/** A token that fails a check is a 401; keys that cannot be fetched are a 503. */
function classify(error: unknown): Error {
  if (error instanceof UnauthorizedError) return error;
  // jose's generic error is a failed key fetch (an HTTP error from the JWKS URL); every check has its own class.
  const keysUnavailable = error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError) || error.code === 'ERR_JOSE_GENERIC';
  if (keysUnavailable) {
    return new UnavailableError(`the token issuer's keys could not be fetched: ${String(error)}`, { cause: error });
  }
  if (error instanceof errors.JWTExpired) return new UnauthorizedError('Unauthorized: the token has expired (exp)', { cause: error });
  return new UnauthorizedError(`Unauthorized: the token is not valid (${error.code})`, { cause: error });
}

async function fetchJsonWithTimeout(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.json();
}
