/** Pure: the Machine a MachineSet creates from its template, and the names it uses. */

import { clusterNameOf } from '../../engine/references/cluster-name-label.js';
import { randomInt } from 'node:crypto';
import { clone, isRecord, recordAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { type KubeObject, LABEL_CLUSTER_NAME, LABEL_DEPLOYMENT_NAME, LABEL_SET_NAME, type StoredObject, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { readReference } from '../../engine/references/object-reference.js';
import { kindFromTemplate } from '../../engine/templates/clone-template.js';

export { LABEL_SET_NAME } from '../../../../shared/contracts/object.js';
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `<ms>-<5 random chars>` as Kubernetes' generateName does. */
export function randomMachineName(setName: string, random: (max: number) => number = randomInt): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[random(NAME_ALPHABET.length)];
  return `${setName.slice(0, 57)}-${suffix}`;
}

/**
 * Cluster API's machineLabelsFromMachineSet: the template's labels, the set-name label, and the
 * deployment-name label of a MachineSet that has one; for the Machine and its parts alike.
 */
export function machineLabels(ms: StoredObject): Record<string, string> {
  const deployment = ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME];
  return {
    ...stringEntriesOf(recordAt(ms, 'spec', 'template', 'metadata')?.labels),
    [LABEL_SET_NAME]: ms.metadata.name,
    ...(deployment === undefined ? {} : { [LABEL_DEPLOYMENT_NAME]: deployment }),
    [LABEL_CLUSTER_NAME]: clusterNameOf(ms),
  };
}

/** Cluster API's machineAnnotationsFromMachineSet: the template's annotations. */
export function machineAnnotations(ms: StoredObject): Record<string, string> {
  return stringEntriesOf(recordAt(ms, 'spec', 'template', 'metadata')?.annotations);
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
      annotations: machineAnnotations(ms),
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
