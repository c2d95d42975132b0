/**
 * The blueprint of a topology Cluster (Cluster API's exp/topology/scope/blueprint.go): its
 * ClusterClass, parsed, and every template the class references, read from the class's namespace.
 * A class that is missing, not yet reconciled, or names a template that does not exist is
 * reported with the reason and message TopologyReconciled carries; nothing is created from it.
 */

import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { groupOf, type StoredObject } from '../../../../shared/contracts/object.js';
import {
  type ClassTemplateRef,
  type ClusterClassSpec,
  clusterClassSpecSchema,
} from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { CLUSTER_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import { TopologyReason } from '../../../../shared/contracts/topology/well-known.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

export interface MachineDeploymentBlueprint {
  classSpec: NonNullable<NonNullable<ClusterClassSpec['workers']>['machineDeployments']>[number];
  bootstrapTemplate: StoredObject;
  infrastructureTemplate: StoredObject;
}

export interface Blueprint {
  clusterClass: StoredObject;
  spec: ClusterClassSpec;
  infrastructureClusterTemplate: StoredObject;
  controlPlaneTemplate: StoredObject;
  controlPlaneMachineInfrastructureTemplate?: StoredObject;
  machineDeployments: Map<string, MachineDeploymentBlueprint>;
}

export type BlueprintResult = { ok: true; blueprint: Blueprint } | { ok: false; reason: string; message: string; requeueAfterSeconds: number };

export const CLASS_NOT_READY_REQUEUE_SECONDS = 10;

export function classRefOf(cluster: StoredObject): { namespace: string; name: string } {
  const name = stringAt(cluster.spec, 'topology', 'classRef', 'name') ?? '';
  const namespace = stringAt(cluster.spec, 'topology', 'classRef', 'namespace') || cluster.metadata.namespace;
  return { namespace, name };
}

/** Cluster API's check: the class controller has seen this generation and its variables are ready. */
export function classReconciled(clusterClass: StoredObject): boolean {
  const observed = isRecord(clusterClass.status) ? clusterClass.status.observedGeneration : undefined;
  const conditions = conditionsOf(clusterClass.status);
  return (
    observed === clusterClass.metadata.generation &&
    findCondition(conditions, 'VariablesReady')?.status === 'True' &&
    findCondition(conditions, 'RefVersionsUpToDate')?.status === 'True'
  );
}

async function readTemplate(store: ObjectStore, namespace: string, ref: ClassTemplateRef): Promise<StoredObject | undefined> {
  return store.get({ group: groupOf(ref.apiVersion), kind: ref.kind, namespace, name: ref.name });
}

export async function loadBlueprint(store: ObjectStore, cluster: StoredObject): Promise<BlueprintResult> {
  const ref = classRefOf(cluster);
  const clusterClass = await store.get({ group: CLUSTER_GROUP, kind: 'ClusterClass', namespace: ref.namespace, name: ref.name });
  const notReady = (message: string, reason: string = TopologyReason.ClusterClassNotReconciled): BlueprintResult => ({
    ok: false,
    reason,
    message,
    requeueAfterSeconds: CLASS_NOT_READY_REQUEUE_SECONDS,
  });
  if (!clusterClass) return notReady(`ClusterClass ${ref.namespace}/${ref.name} not found`, TopologyReason.Failed);
  if (!classReconciled(clusterClass)) return notReady(`ClusterClass ${ref.namespace}/${ref.name} is not reconciled yet (generation ${clusterClass.metadata.generation})`);
  const parsed = clusterClassSpecSchema.safeParse(clusterClass.spec);
  if (!parsed.success) return notReady(`ClusterClass ${ref.namespace}/${ref.name} has an invalid spec`, TopologyReason.Failed);
  const spec = parsed.data;
  const missing: string[] = [];
  const read = async (templateRef: ClassTemplateRef) => {
    const found = await readTemplate(store, ref.namespace, templateRef);
    if (!found) missing.push(`${templateRef.kind} ${ref.namespace}/${templateRef.name}`);
    return found;
  };
  const infrastructureClusterTemplate = await read(spec.infrastructure.templateRef);
  const controlPlaneTemplate = await read(spec.controlPlane.templateRef);
  const cpMachineRef = spec.controlPlane.machineInfrastructure?.templateRef;
  const controlPlaneMachineInfrastructureTemplate = cpMachineRef ? await read(cpMachineRef) : undefined;
  const machineDeployments = new Map<string, MachineDeploymentBlueprint>();
  for (const classSpec of spec.workers?.machineDeployments ?? []) {
    const bootstrapTemplate = await read(classSpec.bootstrap.templateRef);
    const infrastructureTemplate = await read(classSpec.infrastructure.templateRef);
    if (bootstrapTemplate && infrastructureTemplate) machineDeployments.set(classSpec.class, { classSpec, bootstrapTemplate, infrastructureTemplate });
  }
  if (missing.length > 0 || !infrastructureClusterTemplate || !controlPlaneTemplate) {
    return notReady(`ClusterClass ${ref.namespace}/${ref.name} references templates that do not exist: ${missing.join(', ')}`, TopologyReason.Failed);
  }
  return {
    ok: true,
    blueprint: {
      clusterClass,
      spec,
      infrastructureClusterTemplate,
      controlPlaneTemplate,
      ...(controlPlaneMachineInfrastructureTemplate ? { controlPlaneMachineInfrastructureTemplate } : {}),
      machineDeployments,
    },
  };
}
