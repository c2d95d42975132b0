/**
 * What Cluster API's Cluster webhook checks of `spec.topology` against its ClusterClass, which
 * only a store read can tell: the class exists, every MachineDeployment names a class it
 * defines, names are unique, and variables (globals and overrides) fit the class's schemas, with
 * the schema defaults written into the Cluster as the webhook does. A failure is one 422 naming
 * each field at fault; nothing is stored.
 */

import { invalidError } from '../admission/invalid-error.js';
import { deepEqual, isRecord, type JsonRecord, stringAt } from '../json.js';
import type { KubeObject } from '../object.js';
import { CLUSTER_GROUP } from '../schemas/groups.js';
import { type FieldError, invalid, joinPath } from '../validation/field-error.js';
import { versionChangeErrors } from './version-change.js';
import { clusterClassVariableDefinitions, defaultAndValidateVariables, type VariableDefinition } from './topology-variables.js';

/** Reads a ClusterClass (the API passes its store). */
export type ClusterClassReader = (namespace: string, name: string) => Promise<KubeObject | undefined>;

const TOPOLOGY = 'spec.topology';

function machineDeploymentClasses(classSpec: unknown): Set<string> {
  const workers = isRecord(classSpec) && isRecord(classSpec.workers) ? classSpec.workers : {};
  const list = Array.isArray(workers.machineDeployments) ? workers.machineDeployments : [];
  return new Set(list.flatMap((md: unknown) => (isRecord(md) && typeof md.class === 'string' ? [md.class] : [])));
}

function overridesOf(holder: unknown): unknown {
  return isRecord(holder) && isRecord(holder.variables) ? holder.variables.overrides : undefined;
}

function withOverrides(holder: JsonRecord, overrides: unknown): JsonRecord {
  if (overrides === undefined) return holder;
  return { ...holder, variables: { ...(isRecord(holder.variables) ? holder.variables : {}), overrides } };
}

/** Each topology MachineDeployment: a class the ClusterClass defines, a unique name, valid overrides (defaulted). */
function checkMachineDeployments(
  list: unknown,
  classes: ReadonlySet<string>,
  definitions: readonly VariableDefinition[],
  classLabel: string,
): { machineDeployments: unknown[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const mds = Array.isArray(list) ? list : [];
  const machineDeployments = mds.map((md: unknown, i: number) => {
    if (!isRecord(md)) return md;
    const at = joinPath(`${TOPOLOGY}.workers.machineDeployments`, i);
    if (typeof md.class === 'string' && !classes.has(md.class)) {
      errors.push(invalid(joinPath(at, 'class'), md.class, `MachineDeployment class "${md.class}" is not defined in ${classLabel}`));
    }
    if (typeof md.name === 'string' && names.has(md.name)) errors.push({ field: joinPath(at, 'name'), reason: 'FieldValueDuplicate', value: md.name });
    if (typeof md.name === 'string') names.add(md.name);
    const overrides = defaultAndValidateVariables(definitions, overridesOf(md), joinPath(at, 'variables', 'overrides'), false);
    errors.push(...overrides.errors);
    return overridesOf(md) === undefined ? md : withOverrides(md, overrides.variables);
  });
  return { machineDeployments, errors };
}

function classKubernetesVersions(classSpec: unknown): string[] {
  const versions = isRecord(classSpec) ? classSpec.kubernetesVersions : undefined;
  return Array.isArray(versions) ? versions.filter((v): v is string => typeof v === 'string') : [];
}

/** The Cluster with defaulted topology variables, or throws a 422. Clusters without topology pass unchanged. */
export async function admitClusterTopology(cluster: KubeObject, old: KubeObject | undefined, readClass: ClusterClassReader): Promise<KubeObject> {
  const topology = cluster.spec?.topology;
  if (!isRecord(topology)) return cluster;
  if (old && deepEqual(old.spec?.topology, topology)) return cluster;
  const className = stringAt(topology, 'classRef', 'name') ?? '';
  const classNamespace = stringAt(topology, 'classRef', 'namespace') || (cluster.metadata.namespace ?? 'default');
  const clusterClass = await readClass(classNamespace, className);
  const fail = (errors: FieldError[]) => invalidError({ group: CLUSTER_GROUP, kind: 'Cluster' }, cluster.metadata.name, errors);
  if (!clusterClass) {
    throw fail([invalid(`${TOPOLOGY}.classRef.name`, className, `ClusterClass ${classNamespace}/${className} not found`)]);
  }
  const errors = versionChangeErrors(stringAt(old?.spec, 'topology', 'version'), stringAt(topology, 'version') ?? '', classKubernetesVersions(clusterClass.spec));
  const definitions = clusterClassVariableDefinitions(clusterClass);
  const globals = defaultAndValidateVariables(definitions, topology.variables, `${TOPOLOGY}.variables`, true);
  errors.push(...globals.errors);

  const controlPlane = isRecord(topology.controlPlane) ? topology.controlPlane : undefined;
  const cpPath = `${TOPOLOGY}.controlPlane.variables.overrides`;
  const cpOverrides = controlPlane ? defaultAndValidateVariables(definitions, overridesOf(controlPlane), cpPath, false) : undefined;
  errors.push(...(cpOverrides?.errors ?? []));

  const workers = isRecord(topology.workers) ? topology.workers : undefined;
  const checked = checkMachineDeployments(workers?.machineDeployments, machineDeploymentClasses(clusterClass.spec), definitions, `ClusterClass ${classNamespace}/${className}`);
  errors.push(...checked.errors);
  const checkedMds = checked.machineDeployments;
  if (errors.length > 0) throw fail(errors);

  const admitted: JsonRecord = { ...topology, variables: globals.variables };
  if (globals.variables.length === 0 && topology.variables === undefined) delete admitted.variables;
  if (controlPlane && cpOverrides && overridesOf(controlPlane) !== undefined) admitted.controlPlane = withOverrides(controlPlane, cpOverrides.variables);
  if (workers && Array.isArray(workers.machineDeployments)) admitted.workers = { ...workers, machineDeployments: checkedMds };
  return { ...cluster, spec: { ...cluster.spec, topology: admitted } };
}
