/**
 * capless's own hosted extension registered with capless: `capless extension-config` prints an
 * ExtensionConfig whose URL is capless's HTTPS endpoint (path secret included) with the serving
 * certificate as caBundle; `capless apply` registers it; discovery finds the upgrade gate; the hook
 * client calls it over HTTPS and it holds BeforeClusterUpgrade until the Cluster approves the version.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyCommand } from '../../../cli/commands/apply.js';
import { extensionConfigCommand } from '../../../cli/commands/extension-config.js';
import { getCommand } from '../../../cli/commands/get.js';
import { StoreHookClient } from '../../../functions/reconcile/runtime/hook-client/store-hook-client.js';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { HttpsExtensionTransport } from '../../../shared/adapters/https/https-extension-transport.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { eventually } from '../../support/eventually.js';
import { runCli } from '../../support/run-cli.js';

let dataDir: string;
let plane: ControlPlane;
let printed: unknown;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-selfhook-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, tls: true });
  const run = await runCli(extensionConfigCommand, ['--data-dir', dataDir, '--name', 'capless-gate'], { kubeconfigPath: plane.kubeconfigPath });
  expect(run.stderr).toBe('');
  printed = parse(run.stdout);
});

afterAll(async () => {
  await plane?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

function post(url: string, body: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('capless extension-config', () => {
  it('prints an ExtensionConfig for capless own HTTPS endpoint with the path secret and the caBundle', () => {
    expect(printed).toEqual({
      apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
      kind: 'ExtensionConfig',
      metadata: { name: 'capless-gate' },
      spec: { clientConfig: { url: `${plane.url}/hooks/${plane.hooksPathSecret}/upgrade-gate`, caBundle: expect.any(String) } },
    });
  });

  it('refuses a name that is not a DNS-1123 label', async () => {
    const run = await runCli(extensionConfigCommand, ['--data-dir', dataDir, '--name', 'Bad_Name'], { kubeconfigPath: plane.kubeconfigPath });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DNS-1123/);
  });
});

describe('the hosted upgrade gate registered with capless itself', () => {
  const cluster = (annotations: Record<string, string> = {}): KubeObject => ({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'default', annotations },
    spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.34.0' } },
  });
  const upgrade = { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [{ version: 'v1.34.0' }], workersUpgrades: [{ version: 'v1.34.0' }] };

  beforeAll(async () => {
    const applied = await runCli(applyCommand, ['-f', '-'], { kubeconfigPath: plane.kubeconfigPath, stdin: JSON.stringify(printed) });
    expect(applied.code, applied.stderr).toBe(0);
  });

  it('is discovered through the API', async () => {
    const object = await eventually('capless-gate discovered', async (report) => {
      const run = await runCli(getCommand, ['extensionconfigs', 'capless-gate', '-o', 'json'], { kubeconfigPath: plane.kubeconfigPath });
      const parsed: unknown = run.code === 0 ? JSON.parse(run.stdout) : undefined;
      const status = isRecord(parsed) && isRecord(parsed.status) ? parsed.status : undefined;
      report(status ?? run.stderr);
      return findCondition(conditionsOf(status), 'Discovered')?.status === 'True' ? status : undefined;
    });
    expect(object.handlers).toEqual([
      { name: 'before-cluster-upgrade', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterUpgrade' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
    ]);
  });

  it.each<[string, Record<string, string>, string, number | undefined]>([
    ['holds an unapproved upgrade', {}, 'Blocked', 60],
    ['holds an upgrade approved for another version', { 'upgrade-gate.capless.dev/approved-version': 'v1.35.0' }, 'Blocked', 60],
    ['lets an approved upgrade through', { 'upgrade-gate.capless.dev/approved-version': 'v1.34.0' }, 'Success', undefined],
  ])('called by the hook client over HTTPS: %s', async (_name, annotations, status, retry) => {
    const client = new StoreHookClient(plane.store, new HttpsExtensionTransport());
    const result = await client.call('BeforeClusterUpgrade', cluster(annotations), upgrade);
    expect(result.status).toBe(status);
    expect(result.retryAfterSeconds).toBe(retry);
    expect(result.handlers).toEqual(['before-cluster-upgrade.capless-gate']);
  });

  it.each([
    ['without the path secret', (url: string) => url.replace(`/hooks/${plane.hooksPathSecret}/`, '/hooks/')],
    ['with a wrong path secret', (url: string) => url.replace(plane.hooksPathSecret, 'x'.repeat(plane.hooksPathSecret.length))],
  ])('refuses a request %s with 401', async (_name, mangle) => {
    const url = stringAt(printed, 'spec', 'clientConfig', 'url') ?? '';
    const ca = Buffer.from(stringAt(printed, 'spec', 'clientConfig', 'caBundle') ?? '', 'base64').toString('utf8');
    const response = await post(`${mangle(url)}/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery`, '{}', ca);
    expect(response.status).toBe(401);
  });

  it('answers a malformed hook request with a Failure response, not a 500', async () => {
    const url = stringAt(printed, 'spec', 'clientConfig', 'url') ?? '';
    const ca = Buffer.from(stringAt(printed, 'spec', 'clientConfig', 'caBundle') ?? '', 'base64').toString('utf8');
    const response = await post(`${url}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/before-cluster-upgrade`, '{"cluster":', ca);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ kind: 'BeforeClusterUpgradeResponse', status: 'Failure', retryAfterSeconds: 0 });
  });
});
