import type { KindInfo } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { ageOf } from '../../../shared/contracts/printing/age.js';
import { compileJsonPath, evaluateJsonPath } from '../../../shared/contracts/printing/json-path.js';
import { AGE_COLUMN, type PrinterColumn } from '../../../shared/contracts/printing/printer-column.js';
import type { Representation } from './accept.js';

/** A `meta.k8s.io/v1` TableColumnDefinition. */
interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const NAME_COLUMN: ColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

/** The kind's printer columns, or Age alone when it declares none (as for a CRD without columns). */
export function columnsOf(info: KindInfo): readonly PrinterColumn[] {
  return info.printerColumns && info.printerColumns.length > 0 ? info.printerColumns : [AGE_COLUMN(info.kind)];
}

export function columnDefinitions(info: KindInfo): ColumnDefinition[] {
  return [
    NAME_COLUMN,
    ...columnsOf(info).map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
  ];
}

/**
 * A Table of objects, the way kube-apiserver's CRD table convertor builds it: the name, then one
 * cell per printer column (the first value its JSONPath reaches; a date as an age), and the row's
 * object as asked by `includeObject`.
 */
export function tableOf(
  info: KindInfo,
  objects: readonly KubeObject[],
  representation: Extract<Representation, { kind: 'table' }>,
  metadata: Record<string, string>,
  now: number,
  withColumns = true,
): Record<string, unknown> {
  const columns = columnsOf(info);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: withColumns ? columnDefinitions(info) : [],
    rows: objects.map((object) => ({
      cells: [object.metadata.name, ...columns.map((column) => cell(object, column, now))],
      object: rowObject(object, representation.includeObject),
    })),
  };
}

function cell(object: KubeObject, column: PrinterColumn, now: number): unknown {
  const path = compileJsonPath(column.jsonPath);
  const value = path ? evaluateJsonPath(object, path)[0] : undefined;
  if (value === undefined) return null;
  switch (column.type) {
    case 'date':
      return typeof value === 'string' ? ageOf(value, now) : '<invalid>';
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

function rowObject(object: KubeObject, include: 'None' | 'Metadata' | 'Object'): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}
