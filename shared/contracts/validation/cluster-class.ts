/**
 * ClusterClass rules Cluster API's webhook enforces without reading other objects: unique
 * variable, patch and MachineDeployment class names; variable schemas a validator can read, with
 * defaults that fit them; inline patches whose paths stay under `/spec/`, that set exactly one
 * of `value`/`valueFrom` (one of `variable`/`template`), name defined or builtin variables, and
 * whose templates and `enabledIf` parse.
 */

import { templateParseError } from '../../gotemplate/execute.js';
import type { ClassJsonPatch, ClusterClass, ClusterClassPatch, PatchDefinition } from '../schemas/core/cluster-class.js';
import { compileVariableSchema, schemaDefault } from '../topology/variable-schema.js';
import { type FieldError, forbidden, invalid, joinPath, required } from './field-error.js';

function duplicates(names: readonly string[], path: (i: number) => string): FieldError[] {
  const seen = new Set<string>();
  return names.flatMap((name, i) => {
    if (!seen.has(name)) {
      seen.add(name);
      return [];
    }
    return [{ field: path(i), reason: 'FieldValueDuplicate' as const, value: name }];
  });
}

function validateVariables(cc: ClusterClass): FieldError[] {
  const variables = cc.spec.variables ?? [];
  const errors = duplicates(variables.map((v) => v.name), (i) => `spec.variables[${i}].name`);
  for (const [i, variable] of variables.entries()) {
    const at = `spec.variables[${i}].schema.openAPIV3Schema`;
    if (variable.name.startsWith('builtin')) errors.push(invalid(`spec.variables[${i}].name`, variable.name, '"builtin" is a reserved variable name'));
    const compiled = compileVariableSchema(variable.schema.openAPIV3Schema);
    if (!compiled.ok) {
      errors.push(invalid(at, '', `cannot be read as a schema: ${compiled.message}`));
      continue;
    }
    const fallback = schemaDefault(variable.schema.openAPIV3Schema);
    if (fallback.has && !compiled.validator.safeParse(fallback.value).success) {
      errors.push(invalid(joinPath(at, 'default'), fallback.value, 'does not match the schema'));
    }
  }
  return errors;
}

const VARIABLE_PATH = /^[A-Za-z0-9_-]+(?:\[\d+\])?(?:\.[A-Za-z0-9_-]+(?:\[\d+\])?)*$/;

function validateValueFrom(from: NonNullable<ClassJsonPatch['valueFrom']>, p: string, variables: ReadonlySet<string> | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if ((from.variable === undefined) === (from.template === undefined)) {
    errors.push(invalid(`${p}.valueFrom`, '', 'exactly one of variable or template must be set'));
  }
  if (from.variable !== undefined) {
    const root = from.variable.split(/[.[]/)[0] ?? '';
    const known = root === 'builtin' || variables === undefined || variables.has(root);
    if (!VARIABLE_PATH.test(from.variable) || !known) {
      errors.push(invalid(`${p}.valueFrom.variable`, from.variable, 'must name a variable defined in spec.variables or a builtin variable'));
    }
  }
  const problem = from.template === undefined ? undefined : templateParseError(from.template);
  if (problem) errors.push(invalid(`${p}.valueFrom.template`, from.template, `template does not parse: ${problem}`));
  return errors;
}

function validateJsonPatch(jsonPatch: ClassJsonPatch, p: string, variables: ReadonlySet<string> | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (!jsonPatch.path.startsWith('/spec/')) errors.push(invalid(`${p}.path`, jsonPatch.path, 'must start with "/spec/"'));
  if (jsonPatch.op === 'remove') {
    if (jsonPatch.value !== undefined || jsonPatch.valueFrom !== undefined) errors.push(forbidden(`${p}.value`, 'must not be set for op "remove"'));
    return errors;
  }
  if ((jsonPatch.value === undefined) === (jsonPatch.valueFrom === undefined)) {
    errors.push(invalid(p, jsonPatch.op, 'exactly one of value or valueFrom must be set'));
    return errors;
  }
  return jsonPatch.valueFrom ? [...errors, ...validateValueFrom(jsonPatch.valueFrom, p, variables)] : errors;
}

function validateDefinition(definition: PatchDefinition, at: string, variables: ReadonlySet<string> | undefined): FieldError[] {
  const match = definition.selector.matchResources;
  const errors: FieldError[] = [];
  if (!match.controlPlane && !match.infrastructureCluster && !match.machineDeploymentClass && !match.machinePoolClass) {
    errors.push(required(`${at}.selector.matchResources`, 'at least one of the resource selectors must be set'));
  }
  return [...errors, ...definition.jsonPatches.flatMap((jsonPatch, k) => validateJsonPatch(jsonPatch, `${at}.jsonPatches[${k}]`, variables))];
}

/** `variables` undefined: some are discovered from external patches at run time, so names are not checked. */
function validatePatch(patch: ClusterClassPatch, i: number, variables: ReadonlySet<string> | undefined): FieldError[] {
  const at = `spec.patches[${i}]`;
  const errors: FieldError[] = [];
  if ((patch.definitions === undefined) === (patch.external === undefined)) {
    errors.push(invalid(at, patch.name, 'exactly one of definitions or external must be set'));
  }
  const problem = patch.enabledIf === undefined ? undefined : templateParseError(patch.enabledIf);
  if (problem) errors.push(invalid(`${at}.enabledIf`, patch.enabledIf, `template does not parse: ${problem}`));
  return [...errors, ...(patch.definitions ?? []).flatMap((definition, j) => validateDefinition(definition, `${at}.definitions[${j}]`, variables))];
}

export function validateClusterClass(cc: ClusterClass): FieldError[] {
  const mdClasses = cc.spec.workers?.machineDeployments ?? [];
  const patches = cc.spec.patches ?? [];
  const variables = new Set((cc.spec.variables ?? []).map((v) => v.name));
  const external = patches.some((p) => p.external !== undefined);
  return [
    ...validateVariables(cc),
    ...duplicates(mdClasses.map((md) => md.class), (i) => `spec.workers.machineDeployments[${i}].class`),
    ...duplicates(patches.map((p) => p.name), (i) => `spec.patches[${i}].name`),
    // Variables of external patches are discovered at run time, so their names cannot be checked here.
    ...patches.flatMap((patch, i) => validatePatch(patch, i, external ? undefined : variables)),
  ];
}
