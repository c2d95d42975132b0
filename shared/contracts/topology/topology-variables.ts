/**
 * Cluster topology variables against their ClusterClass definitions (Cluster API's variable
 * defaulting and validation webhooks): unknown or duplicate names, values that break the schema,
 * missing required variables; schema defaults are applied, at the top level (a variable the
 * Cluster does not set) and inside values.
 */

import { fieldErrorsFromZod } from '../admission/zod-issues.js';
import { isRecord, type JsonRecord } from '../json.js';
import { type FieldError, invalid, joinPath, required } from '../validation/field-error.js';
import { compileVariableSchema, schemaDefault, type VariableValidator } from './variable-schema.js';

export interface VariableDefinition {
  name: string;
  required: boolean;
  openAPIV3Schema: unknown;
}

export interface TopologyVariable {
  name: string;
  value: unknown;
}

/** The inline variable definitions of a ClusterClass spec. */
export function classVariableDefinitions(classSpec: unknown): VariableDefinition[] {
  const variables = isRecord(classSpec) && Array.isArray(classSpec.variables) ? classSpec.variables : [];
  return variables.flatMap((v: unknown) =>
    isRecord(v) && typeof v.name === 'string'
      ? [{ name: v.name, required: v.required === true, openAPIV3Schema: isRecord(v.schema) ? v.schema.openAPIV3Schema : undefined }]
      : [],
  );
}

function readVariables(list: unknown): TopologyVariable[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((v: unknown) => (isRecord(v) && typeof v.name === 'string' ? [{ name: v.name, value: v.value }] : []));
}

export interface VariablesResult {
  variables: TopologyVariable[];
  errors: FieldError[];
}

/**
 * Validates one list of variables (`spec.topology.variables` or an `overrides` list) at `path`;
 * `topLevel` adds defaults for unset variables and requires the required ones.
 */
export function defaultAndValidateVariables(
  definitions: readonly VariableDefinition[],
  list: unknown,
  path: string,
  topLevel: boolean,
): VariablesResult {
  const errors: FieldError[] = [];
  const validators = new Map<string, VariableValidator>();
  for (const definition of definitions) {
    const compiled = compileVariableSchema(definition.openAPIV3Schema);
    if (compiled.ok) validators.set(definition.name, compiled.validator);
  }
  const seen = new Set<string>();
  const variables: TopologyVariable[] = [];
  for (const [i, variable] of readVariables(list).entries()) {
    const at = joinPath(path, i);
    if (seen.has(variable.name)) {
      errors.push({ field: joinPath(at, 'name'), reason: 'FieldValueDuplicate', value: variable.name });
      continue;
    }
    seen.add(variable.name);
    const validator = validators.get(variable.name);
    if (!validator) {
      errors.push(invalid(joinPath(at, 'name'), variable.name, 'variable is not defined in the ClusterClass'));
      continue;
    }
    const parsed = validator.safeParse(variable.value);
    if (!parsed.success) {
      errors.push(...fieldErrorsFromZod(parsed.error, variable.value).map((e) => under(joinPath(at, 'value'), e)));
      continue;
    }
    variables.push({ name: variable.name, value: parsed.data });
  }
  if (topLevel) {
    for (const definition of definitions) {
      if (seen.has(definition.name)) continue;
      const fallback = schemaDefault(definition.openAPIV3Schema);
      const validator = validators.get(definition.name);
      if (fallback.has && validator) {
        const parsed = validator.safeParse(fallback.value);
        variables.push({ name: definition.name, value: parsed.success ? parsed.data : fallback.value });
      } else if (definition.required) {
        errors.push(required(path, `required variable "${definition.name}" is not set`));
      }
    }
  }
  return { variables, errors };
}

/** A field error of a value, placed under the value's path. */
function under(base: string, error: FieldError): FieldError {
  const field = error.field === '' ? base : error.field.startsWith('[') ? `${base}${error.field}` : `${base}.${error.field}`;
  return { ...error, field };
}

/** Variables as the `{name: value}` map patches and templates read. */
export function variableValues(variables: readonly TopologyVariable[]): JsonRecord {
  return Object.fromEntries(variables.map((v) => [v.name, v.value]));
}
