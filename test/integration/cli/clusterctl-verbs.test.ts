import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { initCommand } from '../../../cli/commands/init.js';
import { upgradeCommand } from '../../../cli/commands/upgrade.js';
import { stringAt } from '../../../shared/contracts/json.js';
import { type TestApi, startTestApi } from '../../support/api-server.js';
import { runCli } from '../../support/run-cli.js';

/** `capless init` (the Provider inventory) and `capless upgrade plan`, in-process through the API. */
let api: TestApi;
let work: string;

const metadataYaml = (series: [number, number, string][]) =>
  stringify({ apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3', kind: 'Metadata', releaseSeries: series.map(([major, minor, contract]) => ({ major, minor, contract })) });

/** clusterctl's local repository layout: <dir>/<version>/metadata.yaml. */
async function repository(name: string, versions: string[], series: [number, number, string][]): Promise<string> {
  const dir = join(work, name);
  for (const version of versions) {
    await mkdir(join(dir, version), { recursive: true });
    await writeFile(join(dir, version, 'metadata.yaml'), metadataYaml(series));
  }
  return dir;
}

const cli = (command: typeof initCommand, args: string[]) => runCli(command, args, { kubeconfigPath: api.kubeconfigPath, cwd: work });

beforeAll(async () => {
  api = await startTestApi();
  work = await mkdtemp(join(tmpdir(), 'capless-clusterctl-verbs-'));
});
afterAll(async () => {
  await api.close();
  await rm(work, { recursive: true, force: true });
});

describe('capless init and upgrade plan', () => {
  it('upgrade plan before init says there is nothing installed', async () => {
    const plan = await cli(upgradeCommand, ['plan']);
    expect(plan).toMatchObject({ code: 0, stderr: '' });
    expect(plan.stdout).toContain('There are no providers in the cluster.');
  });

  it('init records a Provider and its Metadata for every built-in provider', async () => {
    const result = await cli(initCommand, []);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual([
      'Installing provider="cluster-api" version="v0.1.0" targetNamespace="capless-system"',
      'Installing provider="bootstrap-kubeadm" version="v0.1.0" targetNamespace="capless-system"',
      'Installing provider="control-plane-kubeadm" version="v0.1.0" targetNamespace="capless-system"',
      'Installing provider="infrastructure-in-memory" version="v0.1.0" targetNamespace="capless-system"',
      'Installing provider="ipam-in-cluster" version="v0.1.0" targetNamespace="capless-system"',
      'Installing provider="infrastructure-dev" version="v0.1.0" targetNamespace="capless-system"',
      'Installing provider="infrastructure-aws" version="v0.1.0" targetNamespace="capless-system"',
    ]);
    const providers = await api.store.list({ group: 'clusterctl.cluster.x-k8s.io', kind: 'Provider' });
    expect(providers.items.map((p) => [p.metadata.name, stringAt(p, 'type'), stringAt(p, 'version')])).toEqual([
      ['bootstrap-kubeadm', 'BootstrapProvider', 'v0.1.0'],
      ['cluster-api', 'CoreProvider', 'v0.1.0'],
      ['control-plane-kubeadm', 'ControlPlaneProvider', 'v0.1.0'],
      ['infrastructure-aws', 'InfrastructureProvider', 'v0.1.0'],
      ['infrastructure-dev', 'InfrastructureProvider', 'v0.1.0'],
      ['infrastructure-in-memory', 'InfrastructureProvider', 'v0.1.0'],
      ['ipam-in-cluster', 'IPAMProvider', 'v0.1.0'],
    ]);
  });

  it('init again changes nothing', async () => {
    const before = await api.store.list({ group: 'clusterctl.cluster.x-k8s.io', kind: 'Provider' });
    const result = await cli(initCommand, []);
    expect(result.stdout).not.toContain('Installing');
    const after = await api.store.list({ group: 'clusterctl.cluster.x-k8s.io', kind: 'Provider' });
    expect(after.items.map((p) => p.metadata.resourceVersion)).toEqual(before.items.map((p) => p.metadata.resourceVersion));
  });

  it('upgrade plan with only the built-ins: already up to date on v1beta2', async () => {
    const plan = await cli(upgradeCommand, ['plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Latest release available for the v1beta2 API Version of Cluster API (contract):');
    expect(plan.stdout).toMatch(/cluster-api\s+capless-system\s+CoreProvider\s+v0\.1\.0\s+Already up to date/);
    expect(plan.stdout).toContain('You are already up to date!');
  });

  it('an external provider from a local repository takes part in the plan with its newest compatible version', async () => {
    const dir = await repository('aws', ['v2.9.0', 'v2.9.3', 'v2.10.1', 'v2.11.0-rc.0'], [[2, 9, 'v1beta2'], [2, 10, 'v1beta2'], [2, 11, 'v1beta2']]);
    const init = await cli(initCommand, ['--provider', `infrastructure/aws:v2.9.0=${dir}`]);
    expect(init.stderr).toBe('');
    expect(init.stdout).toContain('Installing provider="infrastructure-aws" version="v2.9.0" targetNamespace="capless-system"');
    const plan = await cli(upgradeCommand, ['plan']);
    expect(plan.stdout).toMatch(/infrastructure-aws\s+capless-system\s+InfrastructureProvider\s+v2\.9\.0\s+v2\.10\.1\n/);
    expect(plan.stdout).toContain('To apply it, upgrade capless');
  });

  it.each([
    ['a provider on another contract', 'infrastructure/old:v1.0.0', [[1, 0, 'v1beta1']], /incompatible: v1\.0\.0 follows the v1beta1 contract, capless serves v1beta2; nothing was recorded/],
    ['a version that is not semver', 'infrastructure/odd:latest', [[1, 0, 'v1beta2']], /version "latest" is not a semantic version/],
    ['a version outside the release series', 'infrastructure/gap:v3.0.0', [[1, 0, 'v1beta2']], /v3\.0\.0 matches no release series/],
    ['metadata without release series', 'infrastructure/empty:v1.0.0', [], /releaseSeries: Required value/],
  ] as const)('init refuses %s and records nothing', async (_what, spec, series, message) => {
    const file = join(work, `${spec.replace(/[/:]/g, '-')}.yaml`);
    await writeFile(file, metadataYaml(series.map((s) => [...s])));
    const before = (await api.store.list({ group: 'clusterctl.cluster.x-k8s.io', kind: 'Provider' })).items.length;
    const result = await cli(initCommand, ['--provider', `${spec}=${file}`]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect((await api.store.list({ group: 'clusterctl.cluster.x-k8s.io', kind: 'Provider' })).items.length).toBe(before);
  });

  it('upgrade plan reports a Provider whose version is not semver instead of planning', async () => {
    await api.store.create({
      apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
      kind: 'Provider',
      metadata: { name: 'infrastructure-bad', namespace: 'capless-system' },
      ...{ providerName: 'bad', type: 'InfrastructureProvider', version: 'main' },
    });
    await api.store.create({
      apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
      kind: 'Metadata',
      metadata: { name: 'infrastructure-bad', namespace: 'capless-system' },
      ...{ releaseSeries: [{ major: 1, minor: 0, contract: 'v1beta2' }] },
    });
    const plan = await cli(upgradeCommand, ['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/"main" for the provider infrastructure-bad is not a semantic version/);
  });
});
