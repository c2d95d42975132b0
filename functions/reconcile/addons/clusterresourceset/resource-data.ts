/**
 * A ClusterResourceSet resource (ConfigMap or Secret) as Cluster API reads it
 * (core/reconcilers/clusterresourceset: normalizeData, computeHash, objsFromYamlData): the values of
 * `data` in key order (Secret values base64-decoded), hashed as `sha256:<hex>` over their
 * concatenation, and each value parsed as YAML documents or a JSON list of objects, Namespaces and
 * CustomResourceDefinitions first (SortForCreate). Pure.
 */
import { createHash } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { isRecord } from '../../../../shared/contracts/json.js';
import type { WorkloadObject } from '../../../../shared/ports/workload-cluster.js';

export interface ResourceData {
  /** `data`'s values in key order, decoded. */
  values: string[];
  hash: string;
}

/** The normalized data of a resource; a message when it has no `data` or a value is not a string. */
export function normalizeResourceData(resource: { kind: string; data?: unknown }): ResourceData | { error: string } {
  if (!isRecord(resource.data)) return { error: 'has no data' };
  const values: string[] = [];
  for (const key of Object.keys(resource.data).sort()) {
    const value = resource.data[key];
    if (typeof value !== 'string') return { error: `data.${key} is not a string` };
    values.push(resource.kind === 'Secret' ? Buffer.from(value, 'base64').toString('utf8') : value);
  }
  return { values, hash: computeHash(values) };
}

export function computeHash(values: readonly string[]): string {
  const hash = createHash('sha256');
  for (const value of values) hash.update(value, 'utf8');
  return `sha256:${hash.digest('hex')}`;
}

/** Every object the data holds, in apply order; a message for the first value that is not objects. */
export function objectsOf(values: readonly string[]): WorkloadObject[] | { error: string } {
  const all: WorkloadObject[] = [];
  for (const [index, value] of values.entries()) {
    const parsed = parseValue(value);
    if ('error' in parsed) return { error: `value ${index + 1}: ${parsed.error}` };
    all.push(...sortForCreate(parsed));
  }
  return all;
}

function parseValue(value: string): WorkloadObject[] | { error: string } {
  const trimmed = value.trimStart();
  const documents: unknown[] = [];
  if (trimmed.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(trimmed);
      documents.push(...(Array.isArray(list) ? list : [list]));
    } catch (error) {
      return { error: `not a JSON list: ${String(error)}` };
    }
  } else {
    for (const document of parseAllDocuments(value)) {
      if (document.errors.length > 0) return { error: document.errors[0]?.message ?? 'invalid YAML' };
      const content: unknown = document.toJS();
      if (content !== null && content !== undefined) documents.push(content);
    }
  }
  const objects: WorkloadObject[] = [];
  for (const document of documents) {
    if (!isWorkloadObject(document)) return { error: 'a document is not a Kubernetes object (apiVersion, kind, metadata.name)' };
    objects.push(document);
  }
  return objects;
}

function isWorkloadObject(value: unknown): value is WorkloadObject {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    isRecord(value.metadata) &&
    typeof value.metadata.name === 'string' &&
    (value.metadata.namespace === undefined || typeof value.metadata.namespace === 'string')
  );
}

/** Namespaces, then CustomResourceDefinitions, then the rest in their order (utilresource.SortForCreate). */
export function sortForCreate(objects: readonly WorkloadObject[]): WorkloadObject[] {
  const rank = (o: WorkloadObject) => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);
  return [...objects].sort((a, b) => rank(a) - rank(b));
}
