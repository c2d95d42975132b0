import { PassThrough } from 'node:stream';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFromHttpApiEvent } from '../../../functions/api/aws-event.js';
import { SECRETS_READ_SCOPE, SECRETS_WRITE_SCOPE } from '../../../functions/api/jwt-principal.js';
import { pathAdmission } from '../../../functions/api/path-admission.js';
import { serveAuthenticatedWatch, type WatchFunctionDeps } from '../../../functions/watch/serve-watch.js';
import { FORWARDED_AUTHORIZATION_HEADER, iamWatchAuthentication, jwtWatchAuthentication } from '../../../functions/watch/watch-authentication.js';
import { watchAuthenticationFromEnv } from '../../../functions/watch/wiring.js';
import { writeResponse } from '../../../functions/watch/write-response.js';
import { JoseTokenVerifier } from '../../../shared/adapters/oidc/jose-token-verifier.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';
import { builtinProviderLookup } from '../../../shared/contracts/providers/builtin-lookup.js';
import { systemClock } from '../../../shared/ports/clock.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { type LocalOidcIssuer, startLocalOidcIssuer } from '../../support/local-oidc-issuer.js';

/**
 * The AWS watch function in JWT mode (ADR 0125): the event as a function URL behind CloudFront's
 * origin access control delivers it (`Authorization` is CloudFront's SigV4 signature; the
 * viewer's bearer token travels in `x-capless-authorization`), the token checked by the real
 * verifier against a local OIDC issuer, the watch served from the same API handler.
 */
const CM = '/api/v1/namespaces/ns1/configmaps';
const SECRETS = '/api/v1/namespaces/ns1/secrets';
const SIGV4 = 'AWS4-HMAC-SHA256 Credential=ASIA.../cloudfront/lambda/aws4_request, SignedHeaders=host, Signature=abc';

let issuer: LocalOidcIssuer;
let deps: Omit<WatchFunctionDeps, 'authenticate'>;

beforeAll(async () => {
  issuer = await startLocalOidcIssuer();
  const store = new MemoryObjectStore();
  await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'present', namespace: 'ns1' }, data: { k: 'v' } });
  await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kubeconfig', namespace: 'ns1' }, data: { value: 'c2VjcmV0' } });
  const kinds = new KindRegistry();
  deps = {
    store,
    kinds,
    admission: pathAdmission(kinds, builtinProviderLookup),
    logger: silentLogger,
    watchLog: { append: async () => {}, since: async () => [] },
    clock: systemClock,
    pollIntervalMs: 20,
    heartbeatMs: 60_000,
    retentionSeconds: 3600,
    limits: { maxTimeoutSeconds: 840, bookmarkIntervalMs: 60_000 },
  };
});

afterAll(async () => {
  await issuer.close();
});

/** A function URL event (payload 2.0) as CloudFront with origin access control forwards it. */
function event(path: string, headers: Record<string, string>, iamCaller?: string): APIGatewayProxyEventV2 {
  const authorizer = iamCaller ? { iam: { userArn: iamCaller } } : undefined;
  const value = {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: 'watch=true&timeoutSeconds=1',
    headers: { authorization: SIGV4, ...headers },
    requestContext: { http: { method: 'GET', path }, ...(authorizer ? { authorizer } : {}) },
    isBase64Encoded: false,
  };
  return value as unknown as APIGatewayProxyEventV2;
}

const verifying = () => jwtWatchAuthentication(new JoseTokenVerifier({ issuer: issuer.url, audience: ['capless-api'] }, systemClock));

async function served(e: APIGatewayProxyEventV2, authentication = verifying()) {
  const response = await serveAuthenticatedWatch(e, requestFromHttpApiEvent(e), deps, authentication);
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  await writeResponse(response, out);
  const lines = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line): unknown => JSON.parse(line));
  return { status: response.status, lines };
}

const bearer = (token: string) => ({ [FORWARDED_AUTHORIZATION_HEADER]: `Bearer ${token}` });

describe('the AWS watch function in JWT mode', () => {
  it('streams a watch to the subject of a valid token, as the API would', async () => {
    const { status, lines } = await served(event(CM, bearer(await issuer.token())));
    expect(status).toBe(200);
    expect(lines.filter(isRecord).map((line) => `${String(line.type)} ${stringAt(line.object, 'metadata', 'name')}`)).toEqual(['ADDED present']);
  });

  it.each<[string, () => Promise<Record<string, string>>]>([
    ['no token at all (only CloudFront’s signature)', async () => ({})],
    ['the token in Authorization only (CloudFront’s signature replaced it)', async () => ({ authorization: `Bearer ${await issuer.token()}` })],
    ['an expired token', async () => bearer(await issuer.token({ claims: { exp: Math.floor(Date.now() / 1000) - 60 } }))],
    ['a token for another audience', async () => bearer(await issuer.token({ claims: { aud: 'someone-else' } }))],
    ['a token signed by another key', async () => bearer(await issuer.token({ key: 'other' }))],
    ['an unsigned token (alg none)', async () => bearer(issuer.unsigned())],
    ['a token without sub', async () => bearer(await issuer.token({ claims: { sub: undefined } }))],
    ['a scheme other than Bearer', async () => ({ [FORWARDED_AUTHORIZATION_HEADER]: `Basic ${Buffer.from('a:b').toString('base64')}` })],
  ])('answers %s with a 401 Status and no watch', async (_case, headers) => {
    const { status, lines } = await served(event(CM, await headers(), 'arn:aws:sts::123456789012:assumed-role/cloudfront'));
    expect(status).toBe(401);
    expect(lines).toEqual([expect.objectContaining({ kind: 'Status', code: 401, reason: 'Unauthorized' })]);
  });

  it.each([
    ['no scope', '', false, false],
    ['the secrets read scope', SECRETS_READ_SCOPE, true, false],
    ['both secrets scopes', `openid ${SECRETS_READ_SCOPE} ${SECRETS_WRITE_SCOPE}`, true, true],
  ])('gives a token with %s the Secret rights the API gives it', async (_case, scope, canReadSecrets, canWriteSecrets) => {
    const e = event(CM, bearer(await issuer.token({ claims: { scope } })));
    const authenticate = await verifying()(e, requestFromHttpApiEvent(e));
    expect(authenticate(requestFromHttpApiEvent(e))).toEqual({ name: 'alice', canReadSecrets, canWriteSecrets });
  });

  it('never sends Secret data on a watch, whatever the token’s scopes (as lists, ADR 0043)', async () => {
    const scope = `${SECRETS_READ_SCOPE} ${SECRETS_WRITE_SCOPE}`;
    const { status, lines } = await served(event(SECRETS, bearer(await issuer.token({ claims: { scope } }))));
    expect(status).toBe(200);
    const objects = lines.filter(isRecord).map((line) => line.object);
    expect(objects.map((object) => stringAt(object, 'metadata', 'name'))).toEqual(['kubeconfig']);
    expect(objects.every((object) => isRecord(object) && !('data' in object))).toBe(true);
  });

  it('in IAM mode takes the caller from the function URL’s IAM authorizer', async () => {
    const iamCall = await served(event(CM, {}, 'arn:aws:iam::123456789012:user/ops'), iamWatchAuthentication);
    expect(iamCall.status).toBe(200);
    const anonymous = await served(event(CM, {}), iamWatchAuthentication);
    expect(anonymous.status).toBe(401);
  });

  it.each<[string, NodeJS.ProcessEnv, number]>([
    ['no JWT_ISSUER: IAM mode (an IAM caller is enough)', {}, 200],
    ['JWT_ISSUER and JWT_AUDIENCE: JWT mode (an IAM caller without a token is not)', { JWT_AUDIENCE: '["capless-api"]' }, 401],
  ])('chooses the mode from the environment: %s', async (_case, env, status) => {
    const withIssuer = 'JWT_AUDIENCE' in env ? { ...env, JWT_ISSUER: issuer.url } : env;
    const call = await served(event(CM, {}, 'arn:aws:iam::123456789012:user/ops'), watchAuthenticationFromEnv(withIssuer));
    expect(call.status).toBe(status);
  });
});
