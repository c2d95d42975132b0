/**
 * ExtensionConfig through the embedded control plane's API: discovery over HTTPS against a test
 * extension server with its own CA, handlers validated into status.handlers, bad configurations
 * and bad discovery answers as a Discovered=False condition (or a 4xx), then lifecycle hook calls
 * through the hook client over what was discovered.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreHookClient } from '../../../functions/reconcile/runtime/hook-client/store-hook-client.js';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { HttpsExtensionTransport } from '../../../shared/adapters/https/https-extension-transport.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { eventually } from '../../support/eventually.js';
import { discoveryAnswer, type ExtensionAnswer, handler, type RecordedCall, startExtensionServer, type TestExtensionServer } from '../../support/extension-server.js';
import { RestClient } from '../../support/rest-client.js';

const EC = 'runtime.cluster.x-k8s.io/v1beta2';
const DISCOVERY_PATH = '/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery';

let dataDir: string;
let plane: ControlPlane;
let rest: RestClient;
let server: TestExtensionServer;
/** What the extension answers per path (without query); discovery answers by ExtensionConfig path prefix. */
const answers = new Map<string, (call: RecordedCall) => ExtensionAnswer>();

function answerFor(call: RecordedCall): ExtensionAnswer {
  const path = call.url.split('?')[0] ?? '';
  const found = answers.get(path);
  return found ? found(call) : { status: 404, body: '{}' };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-runtime-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  rest = new RestClient(plane.url, plane.token);
  server = await startExtensionServer(answerFor);
});

afterAll(async () => {
  await plane?.stop();
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function extensionConfig(name: string, clientConfig: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: EC, kind: 'ExtensionConfig', metadata: { name }, spec: { clientConfig, ...extra } };
}

async function discovered(name: string, status: 'True' | 'False'): Promise<KubeObject> {
  return eventually(`ExtensionConfig ${name} Discovered=${status}`, async (report) => {
    const object = await rest.get(EC, 'ExtensionConfig', 'default', name);
    const condition = findCondition(conditionsOf(object?.status), 'Discovered');
    report(object?.status);
    return condition?.status === status ? object : undefined;
  });
}

describe('discovery', () => {
  it('discovers the handlers over HTTPS verified against caBundle and writes them to status.handlers', async () => {
    answers.set(`/good${DISCOVERY_PATH}`, () =>
      discoveryAnswer([handler('before-cluster-upgrade', 'BeforeClusterUpgrade', { timeoutSeconds: 5, failurePolicy: 'Ignore' }), handler('before-cluster-create', 'BeforeClusterCreate')]),
    );
    await rest.mustCreate(extensionConfig('good', { url: `${server.url}/good`, caBundle: server.caBundle }, { settings: { extensionConfigName: 'good' } }));
    const object = await discovered('good', 'True');
    expect(object.status?.handlers).toEqual([
      { name: 'before-cluster-upgrade', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterUpgrade' }, timeoutSeconds: 5, failurePolicy: 'Ignore' },
      { name: 'before-cluster-create', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
    ]);
    const call = server.calls.find((c) => c.url.startsWith(`/good${DISCOVERY_PATH}`));
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe(`/good${DISCOVERY_PATH}?timeout=10s`);
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', kind: 'DiscoveryRequest', settings: { extensionConfigName: 'good' } });
  });

  it.each<[string, string, () => ExtensionAnswer, RegExp]>([
    ['duplicate handler names', 'dup', () => discoveryAnswer([handler('a', 'BeforeClusterCreate'), handler('a', 'BeforeClusterDelete')]), /duplicate name for handler a found/],
    ['a timeout over 30 s', 'slow', () => discoveryAnswer([handler('a', 'BeforeClusterCreate', { timeoutSeconds: 31 })]), /timeoutSeconds 31 must be between 0 and 30/],
    ['a 500', 'err', () => ({ status: 500, body: 'boom' }), /status code 500/],
    ['non-JSON', 'text', () => ({ body: 'hello' }), /not JSON/],
    ['a Failure answer', 'fail', () => ({ body: JSON.stringify({ status: 'Failure', message: 'broken' }) }), /got failure response: broken/],
  ])('a discovery answer with %s is Discovered=False, not a crash', async (_name, name, answer, message) => {
    answers.set(`/${name}${DISCOVERY_PATH}`, answer);
    await rest.mustCreate(extensionConfig(name, { url: `${server.url}/${name}`, caBundle: server.caBundle }));
    const object = await discovered(name, 'False');
    const condition = findCondition(conditionsOf(object.status), 'Discovered');
    expect(condition?.reason).toBe('NotDiscovered');
    expect(condition?.message).toMatch(message);
    expect(object.status?.handlers).toBeUndefined();
  });

  it.each<[string, string, Record<string, unknown>, RegExp]>([
    ['a caBundle that is not PEM', 'notpem', { url: 'https://127.0.0.1:1/x', caBundle: Buffer.from('not a certificate').toString('base64') }, /not a PEM-encoded certificate bundle/],
    ['a server certificate the caBundle does not verify', 'wrongca', { url: 'https://127.0.0.1:1/x' }, /discovery failed/],
  ])('%s is Discovered=False with the reason', async (_name, name, clientConfig, message) => {
    const config = name === 'wrongca' ? { url: `${server.url}/good` } : clientConfig;
    await rest.mustCreate(extensionConfig(name, config));
    const object = await discovered(name, 'False');
    expect(findCondition(conditionsOf(object.status), 'Discovered')?.message).toMatch(message);
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ['a caBundle that is not base64', 'badb64', { url: 'https://127.0.0.1:1/x', caBundle: '!!!' }, 'spec.clientConfig.caBundle'],
    ['an http:// URL', 'plain', { url: 'http://127.0.0.1:1/x' }, 'spec.clientConfig.url'],
    ['neither url nor service', 'empty', {}, 'spec.clientConfig'],
    ['both url and service', 'both', { url: 'https://a.example', service: { name: 'svc', namespace: 'ns' } }, 'spec.clientConfig'],
    ['a service port out of range', 'port', { service: { name: 'svc', namespace: 'ns', port: 70000 } }, 'spec.clientConfig.service.port'],
    ['a name that is not a DNS-1123 label', 'dotted.name', { url: 'https://a.example' }, 'metadata.name'],
  ])('refuses %s with a 422 naming the field, as Cluster API\'s webhook does', async (_name, name, clientConfig, field) => {
    const response = await rest.create(extensionConfig(name, clientConfig));
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body)).toContain(`"field":"${field}"`);
  });

  it('takes the caBundle from the Secret named by inject-ca-from-secret', async () => {
    answers.set(`/injected${DISCOVERY_PATH}`, () => discoveryAnswer([handler('x', 'AfterWorkersUpgrade')]));
    await rest.mustCreate({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ext-cert', namespace: 'ext-system' }, data: { 'ca.crt': server.caBundle } });
    const annotated = (name: string, secret: string): KubeObject => ({
      ...extensionConfig(name, { url: `${server.url}/injected` }),
      metadata: { name, annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': secret } },
    });
    await rest.mustCreate(annotated('injected', 'ext-system/ext-cert'));
    const object = await discovered('injected', 'True');
    expect(object.spec?.clientConfig).toEqual({ url: `${server.url}/injected`, caBundle: server.caBundle });
    await rest.mustCreate(annotated('nosecret', 'ext-system/missing'));
    const missing = await discovered('nosecret', 'False');
    expect(findCondition(conditionsOf(missing.status), 'Discovered')?.message).toMatch(/secret ext-system\/missing not found/);
  });

  it('re-discovers on change and keeps the last handlers when a later discovery fails', async () => {
    answers.set(`/flip${DISCOVERY_PATH}`, () => discoveryAnswer([handler('one', 'AfterClusterUpgrade')]));
    await rest.mustCreate(extensionConfig('flip', { url: `${server.url}/flip`, caBundle: server.caBundle }));
    await discovered('flip', 'True');
    answers.set(`/flip${DISCOVERY_PATH}`, () => ({ status: 503, body: '' }));
    await rest.mergePatch(EC, 'ExtensionConfig', 'default', 'flip', { spec: { settings: { changed: 'yes' } } });
    const object = await discovered('flip', 'False');
    expect(object.status?.handlers).toEqual([expect.objectContaining({ name: 'one' })]);
  });
});

describe('the hook client over discovered handlers', () => {
  const cluster: KubeObject = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'team-a', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
    spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.34.0' } },
    status: { phase: 'Provisioned' },
  };
  const hookPath = (ext: string, name: string) => `/${ext}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterdelete/${name}`;
  let client: StoreHookClient;
  const delete1: { answer: () => ExtensionAnswer } = { answer: () => ({ body: '{"status":"Success","retryAfterSeconds":0}' }) };
  const delete2: { answer: () => ExtensionAnswer } = { answer: () => ({ body: '{"status":"Success","retryAfterSeconds":0}' }) };

  beforeAll(async () => {
    client = new StoreHookClient(plane.store, new HttpsExtensionTransport());
    answers.set(`/h1${DISCOVERY_PATH}`, () => discoveryAnswer([handler('gate', 'BeforeClusterDelete', { timeoutSeconds: 1, failurePolicy: 'Fail' })]));
    answers.set(`/h2${DISCOVERY_PATH}`, () => discoveryAnswer([handler('gate', 'BeforeClusterDelete', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]));
    answers.set(hookPath('h1', 'gate'), () => delete1.answer());
    answers.set(hookPath('h2', 'gate'), () => delete2.answer());
    await rest.mustCreate(extensionConfig('h1', { url: `${server.url}/h1`, caBundle: server.caBundle }, { settings: { owner: 'h1' }, namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }] } }));
    await rest.mustCreate(extensionConfig('h2', { url: `${server.url}/h2`, caBundle: server.caBundle }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } } }));
    await discovered('h1', 'True');
    await discovered('h2', 'True');
  });

  const ok = (retry: number, message = '') => () => ({ body: JSON.stringify({ status: 'Success', retryAfterSeconds: retry, ...(message ? { message } : {}) }) });

  it.each<[string, () => ExtensionAnswer, () => ExtensionAnswer, string, number | undefined, RegExp | undefined]>([
    ['both pass', ok(0), ok(0), 'Success', undefined, undefined],
    ['the smallest non-zero retryAfterSeconds wins', ok(30, 'first waits'), ok(5, 'second waits'), 'Blocked', 5, /first waits, second waits/],
    ['Failure stops the calls', () => ({ body: '{"status":"Failure","message":"no"}' }), ok(0), 'Failure', undefined, /gate\.h1.*answered Failure: no/],
    ['a 500 under Fail fails', () => ({ status: 500, body: 'oops' }), ok(0), 'Failure', undefined, /status code 500/],
    ['non-JSON under Fail fails', () => ({ body: '<html>' }), ok(0), 'Failure', undefined, /not JSON/],
    ['an unknown status fails', () => ({ body: '{"status":"Maybe","retryAfterSeconds":0}' }), ok(0), 'Failure', undefined, /invalid response/],
    ['a negative retryAfterSeconds fails', ok(-5), ok(0), 'Failure', undefined, /must not be negative/],
    ['a retryAfterSeconds over int32 fails', () => ({ body: '{"status":"Success","retryAfterSeconds":99999999999}' }), ok(0), 'Failure', undefined, /invalid response/],
    ['a timeout under Ignore does not block', ok(0), () => ({ delayMs: 3000, body: '{"status":"Success","retryAfterSeconds":60}' }), 'Success', undefined, undefined],
    ['a timeout under Fail blocks and says so', () => ({ delayMs: 3000, body: '{"status":"Success","retryAfterSeconds":0}' }), ok(0), 'Failure', undefined, /timed out/],
    ['Ignore never masks a Failure answer', ok(0), () => ({ body: '{"status":"Failure"}' }), 'Failure', undefined, /gate\.h2/],
  ])('%s', async (_name, first, second, status, retry, message) => {
    delete1.answer = first;
    delete2.answer = second;
    const result = await client.call('BeforeClusterDelete', cluster, {});
    expect(result.status).toBe(status);
    expect(result.retryAfterSeconds).toBe(retry);
    if (message) expect(result.message).toMatch(message);
  });

  it('sends the request as Cluster API does: ?timeout=, kind, settings, the Cluster without status', async () => {
    delete1.answer = ok(0);
    delete2.answer = ok(0);
    const before = server.calls.length;
    await client.call('BeforeClusterDelete', cluster, {});
    const call = server.calls.slice(before).find((c) => c.url.startsWith(hookPath('h1', 'gate')));
    expect(call?.url).toBe(`${hookPath('h1', 'gate')}?timeout=1s`);
    expect(JSON.parse(call?.body ?? '{}')).toEqual({
      apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1',
      kind: 'BeforeClusterDeleteRequest',
      settings: { owner: 'h1' },
      cluster: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: cluster.metadata, spec: cluster.spec },
    });
  });

  it('skips handlers whose namespaceSelector does not match the Cluster namespace', async () => {
    const result = await client.call('BeforeClusterDelete', { ...cluster, metadata: { ...cluster.metadata, namespace: 'other' } }, {});
    expect(result).toEqual({ status: 'Success', message: '', handlers: [] });
  });
});

describe('named calls for external patches (GeneratePatches)', () => {
  const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/spec/template/spec/x', value: 1 }])).toString('base64');
  let client: StoreHookClient;
  let generate: () => ExtensionAnswer = () => ({ body: JSON.stringify({ status: 'Success', items: [{ uid: 'u1', patchType: 'JSONPatch', patch }] }) });

  beforeAll(async () => {
    client = new StoreHookClient(plane.store, new HttpsExtensionTransport());
    answers.set(`/patches${DISCOVERY_PATH}`, () => discoveryAnswer([handler('generate', 'GeneratePatches')]));
    answers.set('/patches/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate', () => generate());
    await rest.mustCreate(extensionConfig('patches', { url: `${server.url}/patches`, caBundle: server.caBundle }, { settings: { a: 'config' } }));
    await discovered('patches', 'True');
  });

  const request = {
    settings: { a: 'class' },
    variables: [],
    items: [{ uid: 'u1', holderReference: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace: 'default', name: 'c1', fieldPath: 'spec.infrastructureRef' }, object: {}, variables: [] }],
  };

  it('calls the one named handler and returns its decoded response; ClusterClass settings win', async () => {
    const before = server.calls.length;
    const result = await client.callExtension('generate.patches', 'GeneratePatches', 'default', request);
    expect(result).toEqual({ status: 'Success', response: { status: 'Success', message: '', items: [{ uid: 'u1', patchType: 'JSONPatch', patch }] } });
    const sent = JSON.parse(server.calls.slice(before).at(-1)?.body ?? '{}');
    expect(sent).toMatchObject({ apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', kind: 'GeneratePatchesRequest', settings: { a: 'class' } });
  });

  it.each<[string, string, () => ExtensionAnswer, RegExp]>([
    ['an unknown handler', 'nope.patches', () => ({ body: '{}' }), /no handler "nope\.patches"/],
    ['a Failure answer', 'generate.patches', () => ({ body: '{"status":"Failure","message":"bad variable"}' }), /answered Failure: bad variable/],
    ['a patch that is not base64', 'generate.patches', () => ({ body: JSON.stringify({ status: 'Success', items: [{ uid: 'u1', patchType: 'JSONPatch', patch: '[{}]' }] }) }), /invalid response/],
  ])('%s is a Failure', async (_name, registered, answer, message) => {
    generate = answer;
    const result = await client.callExtension(registered, 'GeneratePatches', 'default', request);
    expect(result.status).toBe('Failure');
    expect(result.status === 'Failure' && result.message).toMatch(message);
  });
});
