/**
 * Object <-> item. Layout (ADR 0001): keys and index attributes, server-set metadata as their own
 * attributes (so writes can leave them untouched), and three JSON strings:
 *   doc    – apiVersion, kind, type and the client-owned metadata (labels, finalizers, …)
 *   gensrc – canonical JSON of the generation source (`spec`, or `data` for Secrets/ConfigMaps),
 *            compared in conditions to tell a spec change without reading first
 *   status – the status subresource
 */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { isRecord } from '../../../contracts/json.js';
import {
  controllerOf,
  groupOf,
  LABEL_CLUSTER_NAME,
  type KubeObject,
  type ObjectKey,
  type StoredObject,
} from '../../../contracts/object.js';
import { generationFieldOf, generationSourceOf } from '../../../store/generation.js';
import { isStoredObject } from '../../../store/stored-object.js';
import { canonicalJson } from './canonical-json.js';
import { OWNER_EDGE_PARTITION_PREFIX, SECRET_PARTITION_PREFIX, TABLE_INDEXES, TABLE_KEYS } from './table-design.js';

export type Item = Record<string, AttributeValue>;

export const ATTR = {
  pk: TABLE_KEYS.partitionKey,
  sk: TABLE_KEYS.sortKey,
  doc: 'doc',
  gensrc: 'gensrc',
  status: 'status',
  resourceVersion: 'resourceVersion',
  generation: 'generation',
  uid: 'uid',
  creationTimestamp: 'creationTimestamp',
  deletionTimestamp: 'deletionTimestamp',
  finalizerCount: 'finalizerCount',
  edgeTargetPk: 'targetPk',
  edgeTargetSk: 'targetSk',
} as const;

const SERVER_META = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp'] as const;

function groupSegment(group: string): string {
  return group || 'core';
}

export function itemKey(key: ObjectKey): Item {
  return { [ATTR.pk]: { S: `${groupSegment(key.group)}#${key.kind}#${key.namespace}` }, [ATTR.sk]: { S: key.name } };
}

export function partitionOf(group: string, kind: string, namespace: string): string {
  return `${groupSegment(group)}#${kind}#${namespace}`;
}

export function kindPartitionOf(group: string, kind: string): string {
  return secretScoped(group, kind, `${groupSegment(group)}#${kind}`);
}

export function isSecretKind(group: string, kind: string): boolean {
  return group === '' && kind === 'Secret';
}

/**
 * Index partition keys of Secret items start with SECRET_PARTITION_PREFIX, like their table
 * keys, so IAM's dynamodb:LeadingKeys keeps functions without the Secrets permission away from
 * them in the indexes too (indexes project every attribute).
 */
export function secretScoped(group: string, kind: string, partition: string): string {
  return isSecretKind(group, kind) ? `${SECRET_PARTITION_PREFIX}${partition}` : partition;
}

/** byCluster sort keys start with the kind, so a kind's members are one begins_with range. */
export function clusterSortKeyPrefix(group: string, kind: string): string {
  return `${groupSegment(group)}#${kind}#`;
}

export function clusterPartitionOf(namespace: string, clusterName: string): string {
  return `${namespace}#${clusterName}`;
}

/** The owner whose uid goes into the byOwner index: the controller, else the first reference. */
export function primaryOwnerUid(obj: KubeObject): string | undefined {
  return (controllerOf(obj) ?? obj.metadata.ownerReferences?.[0])?.uid;
}

/** Owners beyond the primary one: each gets an owner-edge item. */
export function extraOwnerUids(obj: KubeObject): string[] {
  const primary = primaryOwnerUid(obj);
  return [...new Set((obj.metadata.ownerReferences ?? []).map((ref) => ref.uid))].filter((uid) => uid !== primary);
}

/** Client-owned attributes that `update` rewrites: doc, finalizerCount and the index keys. */
export function mutableAttributes(obj: KubeObject): { set: Item; remove: string[] } {
  const group = groupOf(obj.apiVersion);
  const namespace = obj.metadata.namespace ?? 'default';
  const name = obj.metadata.name;
  const set: Item = {
    [ATTR.doc]: { S: JSON.stringify(docOf(obj)) },
    [ATTR.finalizerCount]: { N: String((obj.metadata.finalizers ?? []).length) },
    [TABLE_INDEXES.byKind.partitionKey]: { S: kindPartitionOf(group, obj.kind) },
    [TABLE_INDEXES.byKind.sortKey]: { S: `${namespace}#${name}` },
  };
  const remove: string[] = [];
  const cluster = obj.metadata.labels?.[LABEL_CLUSTER_NAME];
  if (cluster) {
    set[TABLE_INDEXES.byCluster.partitionKey] = { S: secretScoped(group, obj.kind, clusterPartitionOf(namespace, cluster)) };
    set[TABLE_INDEXES.byCluster.sortKey] = { S: `${clusterSortKeyPrefix(group, obj.kind)}${name}` };
  } else {
    remove.push(TABLE_INDEXES.byCluster.partitionKey, TABLE_INDEXES.byCluster.sortKey);
  }
  const owner = primaryOwnerUid(obj);
  if (owner) {
    set[TABLE_INDEXES.byOwner.partitionKey] = { S: secretScoped(group, obj.kind, owner) };
    set[TABLE_INDEXES.byOwner.sortKey] = { S: `${partitionOf(group, obj.kind, namespace)}#${name}` };
  } else {
    remove.push(TABLE_INDEXES.byOwner.partitionKey, TABLE_INDEXES.byOwner.sortKey);
  }
  return { set, remove };
}

export function gensrcAttribute(obj: KubeObject): AttributeValue {
  return { S: canonicalJson(generationSourceOf(obj)) };
}

export function statusAttribute(obj: KubeObject): AttributeValue | undefined {
  return obj.status === undefined ? undefined : { S: JSON.stringify(obj.status) };
}

/** The whole item for a stored object. */
export function objectToItem(obj: StoredObject): Item {
  const meta = obj.metadata;
  const item: Item = {
    ...itemKey({ group: groupOf(obj.apiVersion), kind: obj.kind, namespace: meta.namespace, name: meta.name }),
    ...mutableAttributes(obj).set,
    [ATTR.gensrc]: gensrcAttribute(obj),
    [ATTR.resourceVersion]: { S: meta.resourceVersion },
    [ATTR.generation]: { N: String(meta.generation) },
    [ATTR.uid]: { S: meta.uid },
    [ATTR.creationTimestamp]: { S: meta.creationTimestamp },
  };
  const status = statusAttribute(obj);
  if (status) item[ATTR.status] = status;
  if (meta.deletionTimestamp) item[ATTR.deletionTimestamp] = { S: meta.deletionTimestamp };
  return item;
}

/** The object an item holds, or undefined when the item is not a well-formed object item. */
export function itemToObject(item: Item | undefined): StoredObject | undefined {
  if (!item) return undefined;
  const doc = parseJson(item[ATTR.doc]?.S);
  if (!isRecord(doc) || !isRecord(doc.metadata)) return undefined;
  const metadata: Record<string, unknown> = {
    ...doc.metadata,
    uid: item[ATTR.uid]?.S,
    resourceVersion: item[ATTR.resourceVersion]?.S,
    generation: Number(item[ATTR.generation]?.N),
    creationTimestamp: item[ATTR.creationTimestamp]?.S,
    deletionTimestamp: item[ATTR.deletionTimestamp]?.S,
  };
  const candidate: Record<string, unknown> = { ...doc, metadata };
  const field = typeof doc.apiVersion === 'string' && typeof doc.kind === 'string' ? generationFieldOf({ apiVersion: doc.apiVersion, kind: doc.kind }) : 'spec';
  const source = parseJson(item[ATTR.gensrc]?.S);
  if (source !== null && source !== undefined) candidate[field] = source;
  const status = parseJson(item[ATTR.status]?.S);
  if (status !== undefined) candidate.status = status;
  const plain: unknown = JSON.parse(JSON.stringify(candidate));
  return isStoredObject(plain) ? plain : undefined;
}

/** Owner-edge item: "object <targetPk,targetSk> has an ownerReference to uid". */
export function ownerEdgeItem(ownerUid: string, target: Item): Item {
  const targetPk = target[ATTR.pk]?.S ?? '';
  const targetSk = target[ATTR.sk]?.S ?? '';
  return {
    [ATTR.pk]: { S: `${OWNER_EDGE_PARTITION_PREFIX}${ownerUid}` },
    [ATTR.sk]: { S: `${targetPk}#${targetSk}` },
    [ATTR.edgeTargetPk]: { S: targetPk },
    [ATTR.edgeTargetSk]: { S: targetSk },
  };
}

function docOf(obj: KubeObject): Record<string, unknown> {
  const { status: _status, metadata, ...rest } = obj;
  const doc: Record<string, unknown> = { ...rest };
  delete doc[generationFieldOf(obj)];
  const clientMeta: Record<string, unknown> = { ...metadata };
  for (const key of SERVER_META) delete clientMeta[key];
  doc.metadata = clientMeta;
  return doc;
}

function parseJson(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}
