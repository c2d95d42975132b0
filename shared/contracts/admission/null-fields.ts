/**
 * The API server drops object fields whose value is null when the CRD does not declare them
 * nullable (apiextensions' structural-schema pruning), so `selector: {matchLabels: null}` — as in
 * CAPA's cluster template — means "unset". capless's custom-resource schemas declare no nullable
 * spec field, so nulls in a custom resource's spec are dropped before validation.
 */

import { isRecord } from '../json.js';

export function dropNullFields(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropNullFields(item);
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, field] of Object.entries(value)) {
    if (field === null) delete value[key];
    else dropNullFields(field);
  }
}

/** The ObjectMeta times a Go client writes as `null` when unset (a zero metav1.Time marshals so). */
const METADATA_TIMES = ['creationTimestamp', 'deletionTimestamp'] as const;

/**
 * Every kind, built-in ones too: `kubectl create secret` (client-go's typed objects, in JSON)
 * sends `metadata.creationTimestamp: null`, which the API server reads as unset.
 */
export function dropNullMetadataTimes(metadata: unknown): void {
  if (!isRecord(metadata)) return;
  for (const field of METADATA_TIMES) if (metadata[field] === null) delete metadata[field];
}
