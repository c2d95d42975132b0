/**
 * What a MachineDeployment changes on its MachineSets in place, new and old alike (Cluster API's
 * computeDesiredMS): its template's labels and annotations, the in-place fields of its Machine
 * spec, `spec.deletion` and `spec.machineNaming`. The MachineSets pass them on to their Machines
 * (machineset/in-place.ts); none of them is a rollout. Its annotations on the MachineSets
 * themselves come from machineset-annotations.ts.
 */

import { clone, deepEqual, recordAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import { clusterNameOf } from '../../engine/references/cluster-name-label.js';
import { withEntries, withInPlaceFields } from '../machine-template-fields.js';
import { LABEL_DEPLOYMENT_NAME, LABEL_TEMPLATE_HASH } from './machineset-factory.js';

function withOptional(record: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...record };
  if (value === undefined) delete next[key];
  else next[key] = clone(value);
  return next;
}

/**
 * The MachineSet with the MachineDeployment's in-place fields and `annotations` set over its own
 * (machineset-annotations.ts), or undefined when it has them already.
 */
export function machineSetInPlace(ms: StoredObject, md: StoredObject, annotations: Readonly<Record<string, string>> = {}): StoredObject | undefined {
  const template = recordAt(md, 'spec', 'template');
  const templateLabels = stringEntriesOf(recordAt(template, 'metadata')?.labels);
  const identity = { [LABEL_DEPLOYMENT_NAME]: md.metadata.name, [LABEL_TEMPLATE_HASH]: ms.metadata.labels?.[LABEL_TEMPLATE_HASH] ?? '' };
  const labels = { ...templateLabels, ...identity, [LABEL_CLUSTER_NAME]: clusterNameOf(md) };
  const msTemplate = recordAt(ms, 'spec', 'template') ?? {};
  const msTemplateMetadata = recordAt(msTemplate, 'metadata') ?? {};
  const nextTemplate = {
    ...msTemplate,
    metadata: {
      ...msTemplateMetadata,
      labels: withEntries(stringEntriesOf(msTemplateMetadata.labels), labels),
      annotations: withEntries(stringEntriesOf(msTemplateMetadata.annotations), stringEntriesOf(recordAt(template, 'metadata')?.annotations)),
    },
    spec: withInPlaceFields(recordAt(msTemplate, 'spec') ?? {}, recordAt(template, 'spec')),
  };
  let spec: Record<string, unknown> = { ...ms.spec, template: nextTemplate };
  spec = withOptional(spec, 'deletion', recordAt(md, 'spec', 'deletion'));
  spec = withOptional(spec, 'machineNaming', recordAt(md, 'spec', 'machineNaming'));
  const metadata = { ...ms.metadata, labels: withEntries(ms.metadata.labels, labels), annotations: withEntries(ms.metadata.annotations, annotations) };
  const next: StoredObject = { ...ms, metadata, spec };
  return deepEqual(next, ms) ? undefined : next;
}
