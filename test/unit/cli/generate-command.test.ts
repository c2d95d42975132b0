// biome-ignore-all lint/suspicious/noTemplateCurlyInString: clusterctl ${VAR} placeholders are the data under test
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateCommand } from '../../../cli/commands/generate.js';
import { runCli } from '../../support/run-cli.js';

let dir: string;

const TEMPLATE = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: "\${CLUSTER_NAME}"
  namespace: "\${NAMESPACE}"
spec:
  clusterNetwork:
    serviceDomain: \${SERVICE_DOMAIN:="cluster.local"}
  topology:
    classRef: {name: in-memory}
    version: \${KUBERNETES_VERSION}
    controlPlane: {replicas: \${CONTROL_PLANE_MACHINE_COUNT}}
    workers:
      machineDeployments: [{class: default-worker, name: md-0, replicas: \${WORKER_MACHINE_COUNT}}]
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capless-generate-'));
  await writeFile(join(dir, 'template.yaml'), TEMPLATE);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('capless generate cluster', () => {
  it('fills the template from the flags', async () => {
    const run = await runCli(
      generateCommand,
      ['cluster', 'dev', '--from', 'template.yaml', '--kubernetes-version', 'v1.33.0', '--control-plane-machine-count', '3', '--worker-machine-count', '2', '--target-namespace', 'team-a'],
      { kubeconfigPath: '', cwd: dir },
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(parse(run.stdout)).toEqual({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: 'dev', namespace: 'team-a' },
      spec: {
        clusterNetwork: { serviceDomain: 'cluster.local' },
        topology: {
          classRef: { name: 'in-memory' },
          version: 'v1.33.0',
          controlPlane: { replicas: 3 },
          workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 2 }] },
        },
      },
    });
  });

  it('a variable with no value and no default is an error naming it', async () => {
    const run = await runCli(generateCommand, ['cluster', 'dev', '--from', 'template.yaml'], { kubeconfigPath: '', cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('[KUBERNETES_VERSION]');
  });

  it.each([
    [['cluster', '--from', 'template.yaml']],
    [['machine', 'x', '--from', 'template.yaml']],
    [['cluster', 'dev']],
    [['cluster', 'dev', '--from', 'template.yaml', '--worker-machine-count', 'two', '--kubernetes-version', 'v1.33.0']],
  ])('usage errors exit 2: %j', async (args) => {
    const run = await runCli(generateCommand, args, { kubeconfigPath: '', cwd: dir });
    expect(run.code).toBe(2);
  });
});
