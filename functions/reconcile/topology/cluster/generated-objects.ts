/**
 * How the topology turns (patched) class templates into objects (Cluster API's
 * controllers/external/util.go and desired_state.go): the body is the template's
 * `spec.template.spec`, the kind drops `Template`; labels `cluster.x-k8s.io/cluster-name` and
 * `topology.cluster.x-k8s.io/owned`; annotations `cluster.x-k8s.io/cloned-from-{name,groupkind}`.
 * Cloned templates are full copies with the same labels and annotations.
 */

import { clone, type JsonRecord, recordAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { groupOf, type KubeObject, LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import { LABEL_TOPOLOGY_OWNED } from '../../../../shared/contracts/topology/well-known.js';
import {
  ANNOTATION_CLONED_FROM_GROUPKIND,
  ANNOTATION_CLONED_FROM_NAME,
  kindFromTemplate,
} from '../../engine/templates/clone-template.js';

export function topologyLabels(clusterName: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, [LABEL_CLUSTER_NAME]: clusterName, [LABEL_TOPOLOGY_OWNED]: '' };
}

export function clonedFrom(template: StoredObject): Record<string, string> {
  return {
    [ANNOTATION_CLONED_FROM_NAME]: template.metadata.name,
    [ANNOTATION_CLONED_FROM_GROUPKIND]: `${template.kind}.${groupOf(template.apiVersion)}`,
  };
}

/** The part of a template patches see and change. */
export function patchableTemplate(template: StoredObject): JsonRecord {
  return { apiVersion: template.apiVersion, kind: template.kind, spec: clone(template.spec ?? {}) };
}

/** An object from a patched `<Kind>Template` (infrastructure cluster, control plane). */
export function objectFromTemplate(input: {
  source: StoredObject;
  patched: JsonRecord;
  name: string;
  clusterName: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}): KubeObject {
  const kind = kindFromTemplate(input.source.kind) ?? input.source.kind;
  const templateMeta = recordAt(input.patched, 'spec', 'template', 'metadata');
  return {
    apiVersion: input.source.apiVersion,
    kind,
    metadata: {
      name: input.name,
      namespace: input.source.metadata.namespace,
      labels: topologyLabels(input.clusterName, { ...stringEntriesOf(templateMeta?.labels), ...input.labels }),
      annotations: { ...stringEntriesOf(templateMeta?.annotations), ...input.annotations, ...clonedFrom(input.source) },
    },
    spec: clone(recordAt(input.patched, 'spec', 'template', 'spec') ?? {}),
  };
}

/** A full copy of a patched template under a new name (machine templates, bootstrap templates). */
export function templateCopy(input: {
  source: StoredObject;
  patched: JsonRecord;
  name: string;
  clusterName: string;
  labels?: Record<string, string>;
}): KubeObject {
  return {
    apiVersion: input.source.apiVersion,
    kind: input.source.kind,
    metadata: {
      name: input.name,
      namespace: input.source.metadata.namespace,
      labels: topologyLabels(input.clusterName, input.labels),
      annotations: clonedFrom(input.source),
    },
    spec: clone(recordAt(input.patched, 'spec') ?? {}),
  };
}
