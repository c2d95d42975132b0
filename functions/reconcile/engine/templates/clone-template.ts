/**
 * Cloning provider templates (`<Kind>Template` → `<Kind>`): the new object gets
 * `spec.template.spec`, template labels/annotations, the cluster-name label, the
 * `cloned-from-*` annotations and a controller owner reference.
 */

import { clone, recordAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import {
  type KubeObject,
  LABEL_CLUSTER_NAME,
  type OwnerReference,
  type StoredObject,
  groupOf,
  ANNOTATION_CLONED_FROM_GROUPKIND,
  ANNOTATION_CLONED_FROM_NAME,
} from '../../../../shared/contracts/object.js';

export { ANNOTATION_CLONED_FROM_GROUPKIND, ANNOTATION_CLONED_FROM_NAME } from '../../../../shared/contracts/object.js';
const TEMPLATE_SUFFIX = 'Template';

/** `KubeadmConfigTemplate` → `KubeadmConfig`; undefined for a kind that is not a template. */
export function kindFromTemplate(templateKind: string): string | undefined {
  return templateKind.endsWith(TEMPLATE_SUFFIX) && templateKind.length > TEMPLATE_SUFFIX.length
    ? templateKind.slice(0, -TEMPLATE_SUFFIX.length)
    : undefined;
}

export interface CloneRequest {
  template: StoredObject;
  name: string;
  clusterName: string;
  owner?: OwnerReference;
  /** Extra labels (e.g. the Machine's set-name and template-hash labels). */
  labels?: Record<string, string>;
  /** Extra annotations, over the template's (Cluster API's GenerateTemplateInput.Annotations). */
  annotations?: Record<string, string>;
}

/** Pure: the object to create from a template, or undefined when `template` is not a `*Template`. */
export function cloneFromTemplate(req: CloneRequest): KubeObject | undefined {
  const kind = kindFromTemplate(req.template.kind);
  if (!kind) return undefined;
  const templateMeta = recordAt(req.template, 'spec', 'template', 'metadata');
  const spec = recordAt(req.template, 'spec', 'template', 'spec') ?? {};
  return {
    apiVersion: req.template.apiVersion,
    kind,
    metadata: {
      name: req.name,
      namespace: req.template.metadata.namespace,
      labels: { ...stringEntriesOf(templateMeta?.labels), ...req.labels, [LABEL_CLUSTER_NAME]: req.clusterName },
      annotations: {
        ...stringEntriesOf(templateMeta?.annotations),
        ...req.annotations,
        [ANNOTATION_CLONED_FROM_NAME]: req.template.metadata.name,
        [ANNOTATION_CLONED_FROM_GROUPKIND]: `${req.template.kind}.${groupOf(req.template.apiVersion)}`,
      },
      ...(req.owner ? { ownerReferences: [req.owner] } : {}),
    },
    spec: clone(spec),
  };
}
