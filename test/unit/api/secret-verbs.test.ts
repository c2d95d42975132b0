import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiDeps, handleApiRequest } from '../../../functions/api/api.js';
import { authorizerPrincipal, requestFromHttpApiEvent } from '../../../functions/api/aws-event.js';
import { SECRETS_READ_SCOPE, SECRETS_WRITE_SCOPE } from '../../../functions/api/jwt-principal.js';
import { pathAdmission } from '../../../functions/api/path-admission.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';
import { builtinProviderLookup } from '../../../shared/contracts/providers/builtin-lookup.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

const VALUE = 'c3VwZXItc2VjcmV0LXZhbHVl'; // "super-secret-value"
const DECODED = 'super-secret-value';
const SECRETS = '/api/v1/namespaces/default/secrets';

let deps: Omit<ApiDeps, 'authenticate'>;

function event(method: string, path: string, scopes: string[], body = '', contentType = 'application/json', query = ''): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers: { 'content-type': contentType },
    body,
    isBase64Encoded: false,
    requestContext: { http: { method }, authorizer: { jwt: { claims: { sub: 'someone' }, scopes } } },
  } as unknown as APIGatewayProxyEventV2; // a hand-made fixture of API Gateway's event, not untrusted input
}

async function call(e: APIGatewayProxyEventV2) {
  const response = await handleApiRequest(requestFromHttpApiEvent(e), { ...deps, authenticate: authorizerPrincipal(e) });
  return { status: response.status, body: response.body };
}

const secret = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { k: VALUE } });
const ALL = [SECRETS_READ_SCOPE, SECRETS_WRITE_SCOPE];

beforeEach(async () => {
  const kinds = new KindRegistry();
  deps = { store: new MemoryObjectStore(), kinds, admission: pathAdmission(kinds, builtinProviderLookup), logger: silentLogger };
  expect((await call(event('POST', SECRETS, ALL, secret('s1')))).status).toBe(201);
});

describe('secrets permissions per verb (JWT scopes)', () => {
  const verbs: [string, string, string, string, string, string][] = [
    ['get', 'GET', `${SECRETS}/s1`, '', 'application/json', ''],
    ['merge patch {}', 'PATCH', `${SECRETS}/s1`, '{}', 'application/merge-patch+json', ''],
    ['json patch []', 'PATCH', `${SECRETS}/s1`, '[]', 'application/json-patch+json', ''],
    ['dry-run delete', 'DELETE', `${SECRETS}/s1`, '', 'application/json', 'dryRun=All'],
    ['delete', 'DELETE', `${SECRETS}/s1`, '', 'application/json', ''],
    ['replace', 'PUT', `${SECRETS}/s1`, secret('s1'), 'application/json', ''],
    ['create', 'POST', SECRETS, secret('s2'), 'application/json', ''],
  ];

  it.each(verbs)('%s without any secrets scope: 403 and no Secret byte', async (_name, method, path, body, type, query) => {
    const response = await call(event(method, path, [], body, type, query));
    expect(response.status).toBe(403);
    expect(response.body).not.toContain(VALUE);
    expect(response.body).not.toContain(DECODED);
    expect((await deps.store.get({ group: '', kind: 'Secret', namespace: 'default', name: 's1' }))?.data?.k).toBe(VALUE);
  });

  it.each(verbs.filter(([, method]) => method !== 'GET' && method !== 'POST'))('%s with only secrets.write: 403 (it would reveal the data)', async (_name, method, path, body, type, query) => {
    expect((await call(event(method, path, [SECRETS_WRITE_SCOPE], body, type, query))).status).toBe(403);
  });

  it.each(verbs.filter(([, method]) => method !== 'GET'))('%s with only secrets.read: 403 (it changes a Secret)', async (_name, method, path, body, type, query) => {
    expect((await call(event(method, path, [SECRETS_READ_SCOPE], body, type, query))).status).toBe(403);
  });

  it.each(verbs)('%s with both scopes succeeds', async (_name, method, path, body, type, query) => {
    const response = await call(event(method, path, ALL, method === 'PUT' ? JSON.stringify({ ...JSON.parse(body), metadata: { name: 's1', resourceVersion: await rv() } }) : body, type, query));
    expect(response.status).toBeLessThan(300);
  });

  it('create with only secrets.write succeeds and does not echo the data', async () => {
    const response = await call(event('POST', SECRETS, [SECRETS_WRITE_SCOPE], secret('s3')));
    expect(response.status).toBe(201);
    expect(response.body).not.toContain(VALUE);
  });

  it('lists succeed without any scope and never carry data', async () => {
    for (const scopes of [[], ALL]) {
      const response = await call(event('GET', SECRETS, scopes));
      expect(response.status).toBe(200);
      expect(response.body).toContain('"s1"');
      expect(response.body).not.toContain(VALUE);
    }
  });

  it('a JSON patch copying Secret data into an invalid field does not echo the value in the 422', async () => {
    const patch = JSON.stringify([{ op: 'copy', from: '/data/k', path: '/metadata/finalizers' }]);
    const response = await call(event('PATCH', `${SECRETS}/s1`, ALL, patch, 'application/json-patch+json'));
    expect(response.status).toBe(422);
    expect(response.body).toContain('metadata.finalizers');
    expect(response.body).not.toContain(VALUE);
    expect(response.body).not.toContain(DECODED);
  });
});

async function rv(): Promise<string> {
  return (await deps.store.get({ group: '', kind: 'Secret', namespace: 'default', name: 's1' }))?.metadata.resourceVersion ?? '';
}
