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

/**
 * Every variable a Cluster of this class may set: the inline definitions, plus those the class
 * controller discovered from external patches (`status.variables` definitions not `from: inline`;
 * the first definition of a name, definitions of one name agree unless marked conflicting).
 */
export function clusterClassVariableDefinitions(clusterClass: { spec?: unknown; status?: unknown }): VariableDefinition[] {
  const inline = classVariableDefinitions(clusterClass.spec);
  const known = new Set(inline.map((v) => v.name));
  const status = isRecord(clusterClass.status) && Array.isArray(clusterClass.status.variables) ? clusterClass.status.variables : [];
  const discovered = status.flatMap((v: unknown) => {
    if (!isRecord(v) || typeof v.name !== 'string' || known.has(v.name) || v.definitionsConflict === true || !Array.isArray(v.definitions)) return [];
    const definition: unknown = v.definitions.find((d: unknown) => isRecord(d) && d.from !== 'inline');
    if (!isRecord(definition)) return [];
    return [{ name: v.name, required: definition.required === true, openAPIV3Schema: isRecord(definition.schema) ? definition.schema.openAPIV3Schema : undefined }];
  });
  return [...inline, ...discovered];
}

function readVariables(list: unknown): TopologyVariable[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((v: unknown) => (isRecord(v) && typeof v.name === 'string' ? [{ name: v.name, value: v.value }] : []));
}

export interface VariablesResult {
  variables: TopologyVariable[];
  errors: FieldError[];
}

function validatorsOf(definitions: readonly VariableDefinition[]): Map<string, VariableValidator> {
  const validators = new Map<string, VariableValidator>();
  for (const definition of definitions) {
    const compiled = compileVariableSchema(definition.openAPIV3Schema);
    if (compiled.ok) validators.set(definition.name, compiled.validator);
  }
  return validators;
}

/** One variable: its defaulted value, or the errors at `at`. */
function checkVariable(variable: TopologyVariable, at: string, validator: VariableValidator | undefined): { value?: unknown; errors: FieldError[] } {
  if (!validator) return { errors: [invalid(joinPath(at, 'name'), variable.name, 'variable is not defined in the ClusterClass')] };
  const parsed = validator.safeParse(variable.value);
  if (parsed.success) return { value: parsed.data, errors: [] };
  return { errors: fieldErrorsFromZod(parsed.error, variable.value).map((e) => under(joinPath(at, 'value'), e)) };
}

/** Variables the Cluster does not set: their schema default, or an error when required. */
function unsetVariables(definitions: readonly VariableDefinition[], seen: ReadonlySet<string>, validators: Map<string, VariableValidator>, path: string): VariablesResult {
  const result: VariablesResult = { variables: [], errors: [] };
  for (const definition of definitions.filter((d) => !seen.has(d.name))) {
    const fallback = schemaDefault(definition.openAPIV3Schema);
    const parsed = fallback.has ? validators.get(definition.name)?.safeParse(fallback.value) : undefined;
    if (parsed?.success) result.variables.push({ name: definition.name, value: parsed.data });
    else if (definition.required) result.errors.push(required(path, `required variable "${definition.name}" is not set`));
  }
  return result;
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
  const validators = validatorsOf(definitions);
  const result: VariablesResult = { variables: [], errors: [] };
  const seen = new Set<string>();
  for (const [i, variable] of readVariables(list).entries()) {
    const at = joinPath(path, i);
    if (seen.has(variable.name)) {
      result.errors.push({ field: joinPath(at, 'name'), reason: 'FieldValueDuplicate', value: variable.name });
      continue;
    }
    seen.add(variable.name);
    const checked = checkVariable(variable, at, validators.get(variable.name));
    result.errors.push(...checked.errors);
    if (checked.errors.length === 0) result.variables.push({ name: variable.name, value: checked.value });
  }
  if (!topLevel) return result;
  const unset = unsetVariables(definitions, seen, validators, path);
  return { variables: [...result.variables, ...unset.variables], errors: [...result.errors, ...unset.errors] };
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
