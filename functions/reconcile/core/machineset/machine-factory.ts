/** Pure: the Machine a MachineSet creates from its template, and the names it uses. */

import { clusterNameOf } from '../../engine/references/cluster-name-label.js';
import { randomInt } from 'node:crypto';
import { clone, isRecord, recordAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { type KubeObject, LABEL_CLUSTER_NAME, type StoredObject, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { readReference } from '../../engine/references/object-reference.js';
import { kindFromTemplate } from '../../engine/templates/clone-template.js';

export const LABEL_SET_NAME = 'cluster.x-k8s.io/set-name';
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `<ms>-<5 random chars>` as Kubernetes' generateName does. */
export function randomMachineName(setName: string, random: (max: number) => number = randomInt): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[random(NAME_ALPHABET.length)];
  return `${setName.slice(0, 57)}-${suffix}`;
}

export function machineLabels(ms: StoredObject): Record<string, string> {
  return {
    ...stringEntriesOf(recordAt(ms, 'spec', 'template', 'metadata')?.labels),
    [LABEL_SET_NAME]: ms.metadata.name,
    [LABEL_CLUSTER_NAME]: clusterNameOf(ms),
  };
}

/** A template reference becomes a reference to the clone named like the Machine; other references stay. */
function clonedReference(ref: unknown, machineName: string): unknown {
  const parsed = readReference({ ref }, 'ref');
  const kind = parsed && kindFromTemplate(parsed.kind);
  return parsed && kind ? { apiGroup: parsed.apiGroup, kind, name: machineName } : ref;
}

export function newMachine(ms: StoredObject, name: string): KubeObject {
  const spec = clone(recordAt(ms, 'spec', 'template', 'spec') ?? {});
  const bootstrap = isRecord(spec.bootstrap) ? spec.bootstrap : {};
  return {
    apiVersion: `${CORE_GROUP}/v1beta2`,
    kind: 'Machine',
    metadata: {
      name,
      namespace: ms.metadata.namespace,
      labels: machineLabels(ms),
      annotations: stringEntriesOf(recordAt(ms, 'spec', 'template', 'metadata')?.annotations),
      ownerReferences: [ownerReferenceTo(ms, true)],
    },
    spec: {
      ...spec,
      clusterName: clusterNameOf(ms),
      bootstrap: {
        ...bootstrap,
        ...(bootstrap.configRef ? { configRef: clonedReference(bootstrap.configRef, name) } : {}),
      },
      ...(spec.infrastructureRef ? { infrastructureRef: clonedReference(spec.infrastructureRef, name) } : {}),
    },
  };
}

/** `k=v,k2=v2` of `spec.selector.matchLabels`, sorted. */
export function selectorString(obj: StoredObject): string {
  const labels = stringEntriesOf(recordAt(obj, 'spec', 'selector', 'matchLabels'));
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}
