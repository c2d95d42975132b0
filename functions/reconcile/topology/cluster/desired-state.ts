/**
 * The desired state of a topology Cluster (Cluster API's desired_state.go `Generate`), computed
 * purely from the Cluster, its blueprint, what exists now and the upgrade decision: the
 * infrastructure cluster, the control plane with its machine template, the MachineDeployments
 * with their bootstrap and infrastructure templates, and the MachineHealthChecks, all patched,
 * named, labelled and run through their kind's admission defaults. The same inputs always give
 * the same objects: nothing random, so a no-op reconcile changes nothing.
 */

import { deepEqual, type JsonRecord, recordAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { groupOf, type KubeObject, type StoredObject } from '../../../../shared/contracts/object.js';
import { LABEL_TOPOLOGY_DEPLOYMENT_NAME } from '../../../../shared/contracts/topology/well-known.js';
import { variableValues } from '../../../../shared/contracts/topology/topology-variables.js';
import type { Blueprint } from './blueprint.js';
import { clusterBuiltin, controlPlaneBuiltin, machineDeploymentBuiltin } from './builtins.js';
import type { CurrentState } from './current-state.js';
import { objectFromTemplate, patchableTemplate, templateCopy, topologyLabels } from './generated-objects.js';
import { controlPlaneHealthCheck, machineDeploymentHealthCheck } from './health-checks.js';
import { machineDeploymentObject } from './machine-deployment-object.js';
import { DEFAULT_CLUSTER_NAMING, DEFAULT_MACHINE_DEPLOYMENT_NAMING, templateName, topologyObjectName } from './names.js';
import type { ClusterClassPatch } from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { applyInlinePatches, type PatchHolder, type PatchItem, TopologyPatchError } from './patches.js';
import { type ClusterTopology, overridesOf } from './topology-spec.js';
import type { UpgradeDecision } from './upgrade.js';

export interface DesiredMachineDeployment {
  topologyName: string;
  object: KubeObject;
  bootstrapTemplate: KubeObject;
  infrastructureTemplate: KubeObject;
  healthCheck?: KubeObject;
}

export interface DesiredState {
  infrastructureCluster: KubeObject;
  controlPlane: KubeObject;
  controlPlaneMachineTemplate?: KubeObject;
  controlPlaneHealthCheck?: KubeObject;
  machineDeployments: DesiredMachineDeployment[];
}

export interface DesiredInput {
  cluster: StoredObject;
  topology: ClusterTopology;
  blueprint: Blueprint;
  current: CurrentState;
  upgrade: UpgradeDecision;
  /** The kind's admission defaults (and validation); throws for an object admission refuses. */
  admit: (object: KubeObject) => KubeObject;
  /** Runs the class's patches on the items (default: inline patches only). */
  applyPatches?: (patches: readonly ClusterClassPatch[], items: readonly PatchItem[]) => Promise<PatchItem[]>;
}

const inlineOnly = (patches: readonly ClusterClassPatch[], items: readonly PatchItem[]) => Promise.resolve(applyInlinePatches(patches, items));

function patcherOf(input: DesiredInput): NonNullable<DesiredInput['applyPatches']> {
  return input.applyPatches ?? inlineOnly;
}

/** The current template's name when its spec is what we want, else a name derived from the content. */
function rotatedName(prefix: string, desiredSpec: unknown, current: KubeObject | undefined): string {
  if (current && deepEqual(current.spec ?? {}, desiredSpec)) return current.metadata.name;
  return templateName(prefix, desiredSpec);
}

function withName(object: KubeObject, name: string): KubeObject {
  return { ...object, metadata: { ...object.metadata, name } };
}

export async function computeDesiredState(input: DesiredInput): Promise<DesiredState> {
  const { cluster, topology, blueprint, current, upgrade, admit } = input;
  const clusterName = cluster.metadata.name;
  const uid = cluster.metadata.uid;
  const globals = variableValues(topology.variables?.map((v) => ({ name: v.name, value: v.value })) ?? []);
  const builtinCluster = clusterBuiltin(cluster, topology);

  const infraName =
    current.infrastructureCluster?.metadata.name ??
    topologyObjectName({ template: blueprint.spec.infrastructure.naming?.template, fallback: DEFAULT_CLUSTER_NAMING, clusterName, seed: `${uid}/infrastructure` });
  const cpName =
    current.controlPlane?.metadata.name ??
    topologyObjectName({ template: blueprint.spec.controlPlane.naming?.template, fallback: DEFAULT_CLUSTER_NAMING, clusterName, seed: `${uid}/controlPlane` });
  const cpReplicas = topology.controlPlane?.replicas;
  const builtinControlPlane = controlPlaneBuiltin({
    version: upgrade.controlPlaneVersion,
    name: cpName,
    replicas: cpReplicas,
    metadata: topology.controlPlane?.metadata,
    machineTemplateName: current.controlPlaneMachineTemplate?.metadata.name,
  });
  const cpVariables = { ...globals, ...overridesOf(topology.controlPlane), builtin: { cluster: builtinCluster, controlPlane: builtinControlPlane } };

  const clusterHolder = (fieldPath: string): PatchHolder => ({ apiVersion: cluster.apiVersion, kind: cluster.kind, name: clusterName, fieldPath });
  const items: PatchItem[] = [
    { role: 'InfrastructureCluster', holder: clusterHolder('spec.infrastructureRef'), description: 'infrastructure cluster template', template: patchableTemplate(blueprint.infrastructureClusterTemplate), variables: { ...globals, builtin: { cluster: builtinCluster, controlPlane: builtinControlPlane } } },
    { role: 'ControlPlane', holder: clusterHolder('spec.controlPlaneRef'), description: 'control plane template', template: patchableTemplate(blueprint.controlPlaneTemplate), variables: cpVariables },
  ];
  if (blueprint.controlPlaneMachineInfrastructureTemplate) {
    const holder = { apiVersion: blueprint.controlPlaneTemplate.apiVersion, kind: blueprint.controlPlaneTemplate.kind.replace(/Template$/, ''), name: cpName, fieldPath: 'spec.machineTemplate.spec.infrastructureRef' };
    items.push({ role: 'ControlPlaneMachineInfrastructure', holder, description: 'control plane machine template', template: patchableTemplate(blueprint.controlPlaneMachineInfrastructureTemplate), variables: cpVariables });
  }
  const mdTopologies = topology.workers?.machineDeployments ?? [];
  const mdNames = new Map<string, string>();
  for (const md of mdTopologies) {
    const mdBlueprint = blueprint.machineDeployments.get(md.class);
    if (!mdBlueprint) throw new TopologyPatchError(`MachineDeployment class "${md.class}" of ${md.name} is not defined in the ClusterClass`);
    const existing = current.machineDeployments.get(md.name);
    const mdName =
      existing?.object.metadata.name ??
      topologyObjectName({ template: mdBlueprint.classSpec.naming?.template, fallback: DEFAULT_MACHINE_DEPLOYMENT_NAMING, clusterName, seed: `${uid}/machineDeployment/${md.name}`, machineDeploymentTopologyName: md.name });
    mdNames.set(md.name, mdName);
    const builtin = {
      cluster: builtinCluster,
      controlPlane: builtinControlPlane,
      machineDeployment: machineDeploymentBuiltin({
        version: upgrade.machineDeploymentVersions.get(md.name) ?? topology.version,
        className: md.class,
        name: mdName,
        topologyName: md.name,
        replicas: md.replicas,
        metadata: md.metadata,
        bootstrapTemplateName: existing?.bootstrapTemplate?.metadata.name,
        infrastructureTemplateName: existing?.infrastructureTemplate?.metadata.name,
      }),
    };
    const variables = { ...globals, ...overridesOf(md), builtin };
    const base = { machineDeploymentClass: md.class, variables };
    const mdHolder = (fieldPath: string): PatchHolder => ({ apiVersion: cluster.apiVersion, kind: 'MachineDeployment', name: mdName, fieldPath });
    items.push(
      { ...base, holder: mdHolder('spec.template.spec.bootstrap.configRef'), role: 'MachineDeploymentBootstrap', description: `MachineDeployment ${md.name} bootstrap template`, template: patchableTemplate(mdBlueprint.bootstrapTemplate) },
      { ...base, holder: mdHolder('spec.template.spec.infrastructureRef'), role: 'MachineDeploymentInfrastructure', description: `MachineDeployment ${md.name} infrastructure template`, template: patchableTemplate(mdBlueprint.infrastructureTemplate) },
    );
  }
  const patched = await patcherOf(input)(blueprint.spec.patches ?? [], items);
  const patchedOf = (role: PatchItem['role'], mdClassTopologyIndex?: number): JsonRecord => {
    const found = mdClassTopologyIndex === undefined ? patched.find((p) => p.role === role) : patched.filter((p) => p.role === role)[mdClassTopologyIndex];
    return found?.template ?? {};
  };

  const infrastructureCluster = admit(objectFromTemplate({ source: blueprint.infrastructureClusterTemplate, patched: patchedOf('InfrastructureCluster'), name: infraName, clusterName }));

  let controlPlaneMachineTemplate: KubeObject | undefined;
  if (blueprint.controlPlaneMachineInfrastructureTemplate) {
    const copy = admit(templateCopy({ source: blueprint.controlPlaneMachineInfrastructureTemplate, patched: patchedOf('ControlPlaneMachineInfrastructure'), name: 'pending', clusterName }));
    controlPlaneMachineTemplate = withName(copy, rotatedName(`${clusterName}-`, copy.spec, current.controlPlaneMachineTemplate));
  }
  const cpMetadata = { labels: { ...stringEntriesOf(blueprint.spec.controlPlane.metadata?.labels), ...stringEntriesOf(topology.controlPlane?.metadata?.labels) }, annotations: { ...stringEntriesOf(blueprint.spec.controlPlane.metadata?.annotations), ...stringEntriesOf(topology.controlPlane?.metadata?.annotations) } };
  const cpObject = objectFromTemplate({ source: blueprint.controlPlaneTemplate, patched: patchedOf('ControlPlane'), name: cpName, clusterName, labels: cpMetadata.labels, annotations: cpMetadata.annotations });
  const templateMachine = recordAt(cpObject.spec, 'machineTemplate') ?? {};
  cpObject.spec = {
    ...cpObject.spec,
    version: upgrade.controlPlaneVersion,
    ...(cpReplicas !== undefined ? { replicas: cpReplicas } : {}),
    ...(controlPlaneMachineTemplate
      ? {
          machineTemplate: {
            ...templateMachine,
            metadata: { labels: topologyLabels(clusterName, cpMetadata.labels), ...(Object.keys(cpMetadata.annotations).length > 0 ? { annotations: cpMetadata.annotations } : {}) },
            spec: {
              ...(recordAt(templateMachine, 'spec') ?? {}),
              infrastructureRef: { apiGroup: groupOf(controlPlaneMachineTemplate.apiVersion), kind: controlPlaneMachineTemplate.kind, name: controlPlaneMachineTemplate.metadata.name },
            },
          },
        }
      : {}),
  };
  const controlPlane = admit(cpObject);

  const machineDeployments = mdTopologies.map((md, index): DesiredMachineDeployment => {
    const mdBlueprint = blueprint.machineDeployments.get(md.class);
    if (!mdBlueprint) throw new TopologyPatchError(`MachineDeployment class "${md.class}" is not defined in the ClusterClass`);
    const existing = current.machineDeployments.get(md.name);
    const labels = { [LABEL_TOPOLOGY_DEPLOYMENT_NAME]: md.name };
    const prefix = `${clusterName}-${md.name}-`;
    const bootstrapCopy = admit(templateCopy({ source: mdBlueprint.bootstrapTemplate, patched: patchedOf('MachineDeploymentBootstrap', index), name: 'pending', clusterName, labels }));
    const bootstrapTemplate = withName(bootstrapCopy, rotatedName(prefix, bootstrapCopy.spec, existing?.bootstrapTemplate));
    const infraCopy = admit(templateCopy({ source: mdBlueprint.infrastructureTemplate, patched: patchedOf('MachineDeploymentInfrastructure', index), name: 'pending', clusterName, labels }));
    const infrastructureTemplate = withName(infraCopy, rotatedName(prefix, infraCopy.spec, existing?.infrastructureTemplate));
    const name = mdNames.get(md.name) ?? md.name;
    const object = admit(
      machineDeploymentObject({
        name,
        namespace: cluster.metadata.namespace,
        clusterName,
        topology: md,
        classSpec: mdBlueprint.classSpec,
        version: upgrade.machineDeploymentVersions.get(md.name) ?? topology.version,
        bootstrapTemplate,
        infrastructureTemplate,
        currentReplicas: existing?.object.spec?.replicas,
      }),
    );
    const healthCheck = machineDeploymentHealthCheck({ clusterName, namespace: cluster.metadata.namespace, name, topologyName: md.name, classHealthCheck: mdBlueprint.classSpec.healthCheck, topologyHealthCheck: md.healthCheck });
    return { topologyName: md.name, object, bootstrapTemplate, infrastructureTemplate, ...(healthCheck ? { healthCheck: admit(healthCheck) } : {}) };
  });

  const cpHealthCheck = controlPlaneHealthCheck({ clusterName, namespace: cluster.metadata.namespace, name: cpName, classHealthCheck: blueprint.spec.controlPlane.healthCheck, topologyHealthCheck: topology.controlPlane?.healthCheck });
  return {
    infrastructureCluster,
    controlPlane,
    ...(controlPlaneMachineTemplate ? { controlPlaneMachineTemplate } : {}),
    ...(cpHealthCheck ? { controlPlaneHealthCheck: admit(cpHealthCheck) } : {}),
    machineDeployments,
  };
}
