/** Pure: the template hash of a MachineDeployment and the MachineSet it owns for that hash. */

import { clusterNameOf } from '../../engine/references/cluster-name-label.js';
import { clone, recordAt, stringEntriesOf, valueAt } from '../../../../shared/contracts/json.js';
import { type KubeObject, LABEL_CLUSTER_NAME, LABEL_DEPLOYMENT_NAME, type StoredObject, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { shortHash } from '../../engine/hashing/stable-hash.js';
import { MACHINE_SET_FINALIZER } from '../machineset/reconciler.js';
import { type RolloutStrategy, resolveIntOrPercent } from './rollout-plan.js';

export const LABEL_TEMPLATE_HASH = 'machine-template-hash';
export { LABEL_DEPLOYMENT_NAME } from '../../../../shared/contracts/object.js';

/** Hash of `spec.template.spec` (version included): a new value means a new MachineSet. */
export function templateHash(md: StoredObject): string {
  return shortHash(valueAt(md, 'spec', 'template', 'spec') ?? {});
}

/**
 * Cluster API's MaxSurge, MaxUnavailable and ResolveFenceposts: OnDelete surges and takes down
 * nothing; a rolling update whose fenceposts both resolve to zero (a percentage rounded down)
 * may take one Machine down (surge might fail on quota); never more unavailable than replicas.
 */
export function rolloutStrategyOf(md: StoredObject, replicas: number): RolloutStrategy {
  const strategy = recordAt(md, 'spec', 'rollout', 'strategy');
  if (strategy?.type === 'OnDelete') return { type: 'OnDelete', maxSurge: 0, maxUnavailable: 0 };
  const rolling = recordAt(strategy, 'rollingUpdate');
  const maxSurge = resolveIntOrPercent(rolling?.maxSurge, replicas, true, 1);
  const resolved = resolveIntOrPercent(rolling?.maxUnavailable, replicas, false, 0);
  const maxUnavailable = maxSurge === 0 && resolved === 0 ? 1 : resolved;
  return { type: 'RollingUpdate', maxSurge, maxUnavailable: Math.min(maxUnavailable, replicas) };
}

/** `<deployment>-<hash>`, the deployment's name cut so the whole stays a label value (63 characters): the Machines' set-name label carries it. */
export function machineSetName(md: StoredObject, hash: string): string {
  return `${md.metadata.name.slice(0, 62 - hash.length)}-${hash}`;
}

/** The MachineSet for `hash`, with the annotations the MachineDeployment keeps on it (machineset-annotations.ts). */
export function newMachineSet(md: StoredObject, hash: string, replicas: number, annotations: Readonly<Record<string, string>> = {}): KubeObject {
  const template = recordAt(md, 'spec', 'template');
  const templateMeta = recordAt(template, 'metadata');
  const identity = { [LABEL_DEPLOYMENT_NAME]: md.metadata.name, [LABEL_TEMPLATE_HASH]: hash };
  const matchLabels = stringEntriesOf(recordAt(md, 'spec', 'selector', 'matchLabels'));
  const deletion = recordAt(md, 'spec', 'deletion');
  return {
    apiVersion: `${CORE_GROUP}/v1beta2`,
    kind: 'MachineSet',
    metadata: {
      name: machineSetName(md, hash),
      namespace: md.metadata.namespace,
      labels: { ...stringEntriesOf(templateMeta?.labels), ...identity, [LABEL_CLUSTER_NAME]: clusterNameOf(md) },
      ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
      ownerReferences: [ownerReferenceTo(md, true)],
      // Created with it, so the MachineSet's first reconcile has no finalizer write to make.
      finalizers: [MACHINE_SET_FINALIZER],
    },
    spec: {
      clusterName: clusterNameOf(md),
      replicas,
      selector: { matchLabels: { ...matchLabels, ...identity } },
      template: {
        metadata: {
          labels: { ...stringEntriesOf(templateMeta?.labels), ...identity, [LABEL_CLUSTER_NAME]: clusterNameOf(md) },
          annotations: stringEntriesOf(templateMeta?.annotations),
        },
        spec: clone(recordAt(template, 'spec') ?? {}),
      },
      ...(deletion ? { deletion: clone(deletion) } : {}),
    },
  };
}
