import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type TestApi, startTestApi } from '../../support/api-server.js';
import { KUBECTL_BINARIES, runTool, toolEnv } from '../../support/kubectl-binaries.js';

const rule = (name: string, apiVersion: string, drain: Record<string, unknown>) => ({
  apiVersion,
  kind: 'MachineDrainRule',
  metadata: { name, namespace: 'default' },
  spec: { drain, pods: [{ selector: { matchLabels: { app: name } } }] },
});

/** MachineDrainRules with kubectl: applied in both versions, Cluster API's columns, explain, a refusal naming the field. */
describe.each(KUBECTL_BINARIES)('kubectl (%s): MachineDrainRules', (KUBECTL) => {
  let api: TestApi;
  let home: string;
  const kubectl = (...args: string[]) => runTool(KUBECTL, args, toolEnv(home, api.kubeconfigPath));
  const manifest = async (name: string, objects: unknown[]) => {
    const path = join(home, name);
    await writeFile(path, objects.map((o) => stringify(o)).join('---\n'));
    return path;
  };

  beforeAll(async () => {
    api = await startTestApi();
    home = await mkdtemp(join(tmpdir(), 'capless-kubectl-drain-rules-'));
  });
  afterAll(async () => {
    await api.close();
    await rm(home, { recursive: true, force: true });
  });

  const rows = (stdout: string) => stdout.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));

  it('apply creates rules written in v1beta2 and v1beta1', async () => {
    const file = await manifest('rules.yaml', [
      rule('database', 'cluster.x-k8s.io/v1beta2', { behavior: 'Drain', order: 100 }),
      rule('logging', 'cluster.x-k8s.io/v1beta1', { behavior: 'Skip' }),
    ]);
    const result = await kubectl('apply', '-f', file);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('machinedrainrule.cluster.x-k8s.io/database created');
    expect(result.stdout).toContain('machinedrainrule.cluster.x-k8s.io/logging created');
  });

  it('get machinedrainrules prints the Behavior and Order columns', async () => {
    const result = await kubectl('get', 'machinedrainrules');
    expect(result.stderr).toBe('');
    const [header, database, logging] = rows(result.stdout);
    expect(header).toEqual(['NAME', 'BEHAVIOR', 'ORDER', 'AGE']);
    expect(database?.slice(0, 3)).toEqual(['database', 'Drain', '100']);
    // No order: an empty cell, then the age.
    expect(logging).toEqual(['logging', 'Skip', expect.stringMatching(/^\d+s$/)]);
  });

  it('server-side apply of a v1beta1 rule changes it; get -o jsonpath reads it back', async () => {
    const file = await manifest('ssa.yaml', [rule('database', 'cluster.x-k8s.io/v1beta1', { behavior: 'Drain', order: 200 })]);
    const applied = await kubectl('apply', '--server-side', '--force-conflicts', '-f', file);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('machinedrainrule.cluster.x-k8s.io/database serverside-applied');
    const order = await kubectl('get', 'machinedrainrule', 'database', '-o', 'jsonpath={.apiVersion} {.spec.drain.order}');
    expect(order.stdout).toBe('cluster.x-k8s.io/v1beta2 200');
  });

  it('explain machinedrainrules.spec.drain lists behavior and order', async () => {
    const result = await kubectl('explain', 'machinedrainrules.spec.drain');
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/KIND:\s+MachineDrainRule/);
    for (const field of ['behavior', 'order']) expect(result.stdout).toMatch(new RegExp(`^\\s+${field}\\s`, 'm'));
    expect(result.stdout).toContain('WaitCompleted');
  });

  it('a rule Cluster API refuses is refused with the field named', async () => {
    const file = await manifest('bad.yaml', [rule('bad-order', 'cluster.x-k8s.io/v1beta2', { behavior: 'WaitCompleted', order: 1 })]);
    const result = await kubectl('create', '-f', file);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('spec.drain.order: Invalid value: 1: order must not be set if drain behavior is "Skip" or "WaitCompleted"');
  });
});
