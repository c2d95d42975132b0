/**
 * `metadata.managedFields`: who set which fields, one entry per manager and operation
 * (k8s.io/apimachinery ManagedFieldsEntry). Checked where they enter (a client may send them
 * back, or reset them with `[]`), read tolerantly where they were stored.
 */

import { type JsonRecord, isRecord } from '../../../shared/contracts/json.js';
import type { StatusCause } from '../../../shared/errors/index.js';
import { type FieldSet, fieldSetFromJson, fieldSetToJson } from './field-set.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  subresource?: string;
  fields: FieldSet;
}

export const MAX_MANAGER_LENGTH = 128;
const ENTRY_FIELDS = new Set(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
const OPERATIONS = ['Apply', 'Update'] as const;

/** What is wrong with a managedFields value a client sent, field by field (none: it may be stored). */
export function managedFieldsErrors(value: unknown): StatusCause[] {
  if (value === undefined) return [];
  const at = 'metadata.managedFields';
  if (!Array.isArray(value)) return [{ field: at, reason: 'FieldValueInvalid', message: 'must be a list of entries' }];
  return value.flatMap((entry, index) => entryErrors(entry, `${at}[${index}]`));
}

function entryErrors(entry: unknown, at: string): StatusCause[] {
  if (!isRecord(entry)) return [{ field: at, reason: 'FieldValueInvalid', message: 'must be an object' }];
  const causes: StatusCause[] = [];
  for (const field of Object.keys(entry)) {
    if (!ENTRY_FIELDS.has(field)) causes.push({ field: `${at}.${field}`, reason: 'FieldValueInvalid', message: `unknown field ${JSON.stringify(field.slice(0, 64))}` });
  }
  if (typeof entry.manager !== 'string' || entry.manager.length > MAX_MANAGER_LENGTH) {
    causes.push({ field: `${at}.manager`, reason: 'FieldValueInvalid', message: `must be a string of at most ${MAX_MANAGER_LENGTH} characters` });
  }
  if (!OPERATIONS.some((op) => op === entry.operation)) {
    causes.push({ field: `${at}.operation`, reason: 'FieldValueNotSupported', message: 'supported values: "Apply", "Update"' });
  }
  if (entry.fieldsType !== 'FieldsV1') causes.push({ field: `${at}.fieldsType`, reason: 'FieldValueInvalid', message: 'must be `FieldsV1`' });
  if (entry.fieldsV1 !== undefined && fieldSetFromJson(entry.fieldsV1) === undefined) {
    causes.push({ field: `${at}.fieldsV1`, reason: 'FieldValueInvalid', message: 'is not a set of field paths (f:, k:, v:, i: elements)' });
  }
  for (const field of ['apiVersion', 'time', 'subresource']) {
    if (entry[field] !== undefined && typeof entry[field] !== 'string') causes.push({ field: `${at}.${field}`, reason: 'FieldValueInvalid', message: 'must be a string' });
  }
  return causes;
}

/** The entries of a stored object; anything unreadable is left out. */
export function readManagedFields(value: unknown): ManagedFieldsEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): ManagedFieldsEntry[] => {
    if (!isRecord(entry) || typeof entry.manager !== 'string') return [];
    const operation = OPERATIONS.find((op) => op === entry.operation);
    const fields = entry.fieldsV1 === undefined ? undefined : fieldSetFromJson(entry.fieldsV1);
    if (operation === undefined || fields === undefined) return [];
    return [
      {
        manager: entry.manager,
        operation,
        ...(typeof entry.apiVersion === 'string' ? { apiVersion: entry.apiVersion } : {}),
        ...(typeof entry.time === 'string' ? { time: entry.time } : {}),
        ...(typeof entry.subresource === 'string' ? { subresource: entry.subresource } : {}),
        fields,
      },
    ];
  });
}

export function managedFieldsJson(entries: readonly ManagedFieldsEntry[]): JsonRecord[] {
  return entries.map((entry) => ({
    manager: entry.manager,
    operation: entry.operation,
    ...(entry.apiVersion !== undefined ? { apiVersion: entry.apiVersion } : {}),
    ...(entry.time !== undefined ? { time: entry.time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: fieldSetToJson(entry.fields),
    ...(entry.subresource !== undefined ? { subresource: entry.subresource } : {}),
  }));
}
