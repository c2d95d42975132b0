import { describe, expect, it } from 'vitest';
import { clusterTree, renderTree } from '../../../cli/output/describe-tree.js';
import { renderTable } from '../../../cli/output/table.js';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const obj = (kind: string, name: string, status: Record<string, unknown> = {}, createdMinutesAgo = 5) => ({
  kind,
  metadata: { name, creationTimestamp: new Date(NOW - createdMinutesAgo * 60_000).toISOString() },
  status,
});
const ready = (message?: string) => ({ conditions: [{ type: 'Ready', status: message ? 'False' : 'True', reason: 'R', ...(message ? { message } : {}), lastTransitionTime: new Date(NOW - 60_000).toISOString() }] });

describe('clusterTree + renderTree', () => {
  it('draws the clusterctl shape with READY, PHASE, AGE and the failing message', () => {
    const tree = clusterTree({
      cluster: obj('Cluster', 'c1', { phase: 'Provisioned', conditions: [{ type: 'Available', status: 'False', reason: 'X', message: 'one  worker\nmissing' }] }, 130),
      infrastructure: obj('DockerCluster', 'c1', { ready: true }),
      controlPlane: obj('KubeadmControlPlane', 'cp', ready()),
      controlPlaneMachines: [obj('Machine', 'cp-1', { phase: 'Running', ...ready() }), obj('Machine', 'cp-2', { phase: 'Provisioning', ...ready('waiting') })],
      machineDeployments: [{ machineDeployment: obj('MachineDeployment', 'md-0'), machines: [obj('Machine', 'md-0-a', { phase: 'Running' })] }],
      otherMachines: [],
    });
    expect(renderTree(tree, NOW, false).split('\n').map((l) => l.trimEnd())).toEqual([
      'NAME                                         READY   PHASE          AGE    MESSAGE',
      'Cluster/c1                                   False   Provisioned    130m   one worker missing',
      '├─ClusterInfrastructure - DockerCluster/c1   True                   5m',
      '├─ControlPlane - KubeadmControlPlane/cp      True                   5m',
      '│ ├─Machine/cp-1                             True    Running        5m',
      '│ └─Machine/cp-2                             False   Provisioning   5m     waiting',
      '└─Workers',
      '  └─MachineDeployment/md-0                   -                      5m',
      '    └─Machine/md-0-a                         -       Running        5m',
      '',
    ]);
  });

  it('lists conditions under each object with --show-conditions', () => {
    const text = renderTree(clusterTree({ cluster: obj('Cluster', 'c', ready('no')), controlPlaneMachines: [], machineDeployments: [], otherMachines: [obj('Machine', 'm')] }), NOW, true);
    expect(text.split('\n').map((l) => l.trimEnd())).toEqual([
      'NAME            READY   PHASE/REASON   AGE/SINCE   MESSAGE',
      'Cluster/c       False                  5m          no',
      '├─Ready         False   R              60s         no',
      '└─Workers',
      '  └─Machine/m   -                      5m',
      '',
    ]);
  });

  it('renders a bare cluster and puts control-plane machines under a plain group when there is no control plane object', () => {
    const text = renderTree(clusterTree({ cluster: obj('Cluster', 'c'), controlPlaneMachines: [obj('Machine', 'm')], machineDeployments: [], otherMachines: [] }), NOW, false);
    expect(text.split('\n').map((l) => /^(\s*\S+)/.exec(l)?.[1] ?? '')).toEqual(['NAME', 'Cluster/c', '└─ControlPlane', '  └─Machine/m', '']);
  });
});

describe('renderTable', () => {
  it('pads every column but the last, three spaces apart', () => {
    expect(renderTable(['A', 'LONGER'], [['xx', 'y'], ['', 'z']])).toBe('A    LONGER\nxx   y\n     z\n');
  });
});
