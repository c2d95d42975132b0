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
