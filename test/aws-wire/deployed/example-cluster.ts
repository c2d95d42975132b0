/** The example cluster the deployed-stack tests apply, and how they find resources of the synthesized template. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '../../../lib/stacks/functions/project-root.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord, stringAt, valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { RestClient } from '../../support/rest-client.js';
import type { Template } from './deploy-plan.js';

export const EXAMPLE = join(projectRoot(), 'examples/in-memory-cluster.yaml');
export const CORE = 'cluster.x-k8s.io/v1beta2';
export const NS = 'default';
export const CLUSTER = 'dev';
export const WORKERS = 'dev-md-0';

/**
 * The kinds of the example cluster: applied, or made by its reconcilers. Their reconcile functions
 * must run; the other kinds' (ClusterClass, MachineHealthCheck, IPAM, Dev, AWS) must receive nothing.
 */
export const EXAMPLE_KINDS = [
  'cluster.x-k8s.io/Cluster',
  'cluster.x-k8s.io/MachineDeployment',
  'cluster.x-k8s.io/MachineSet',
  'cluster.x-k8s.io/Machine',
  'controlplane.cluster.x-k8s.io/KubeadmControlPlane',
  'bootstrap.cluster.x-k8s.io/KubeadmConfig',
  'infrastructure.cluster.x-k8s.io/InMemoryCluster',
  'infrastructure.cluster.x-k8s.io/InMemoryMachine',
];

/**
 * The function reached only through its function URL (ADR 0080): moto's CloudFormation creates no
 * function URLs, so the scenario cannot call it; its handler is tested on dynalite instead
 * (test/integration/watch/aws-watch-function.test.ts).
 */
const ONLY_BEHIND_A_FUNCTION_URL = 'capless-watch';

/** The API, router, dispatcher and resync functions, and the reconcilers of the example's kinds. */
export function exercised(fn: { spec: { environment: Record<string, string> } }): boolean {
  if (fn.spec.environment.POWERTOOLS_SERVICE_NAME === ONLY_BEHIND_A_FUNCTION_URL) return false;
  const kind = fn.spec.environment.RECONCILE_KIND;
  return kind === undefined || EXAMPLE_KINDS.includes(kind);
}

/** The example cluster; `replicas` overrides its control-plane and worker counts (the breakage tests need less to show). */
export async function applyExample(api: RestClient, replicas?: { controlPlane: number; workers: number }): Promise<void> {
  for (const document of parseAllDocuments(readFileSync(EXAMPLE, 'utf8'))) {
    const object: unknown = document.toJS();
    const spec = valueAt(object, 'spec');
    if (replicas && isRecord(spec) && stringAt(object, 'kind') === 'KubeadmControlPlane') spec.replicas = replicas.controlPlane;
    if (replicas && isRecord(spec) && stringAt(object, 'kind') === 'MachineDeployment') spec.replicas = replicas.workers;
    await api.mustCreateDocument(object);
  }
}

export function isAvailable(cluster: KubeObject | undefined): boolean {
  return findCondition(conditionsOf(cluster?.status), 'Available')?.status === 'True';
}

/** The component that holds `path` in its aws:cdk:path, e.g. `ReconcileInMemoryMachine/Function/Resource`. */
export function logicalIdAt(template: Template, pathSuffix: string): string {
  const found = Object.entries(template.Resources).find(([, r]) => (stringAt(valueAt(r, 'Metadata'), 'aws:cdk:path') ?? '').endsWith(pathSuffix));
  if (!found) throw new Error(`no resource at …${pathSuffix}`);
  return found[0];
}

export type TemplateEdit = (template: Template) => Template;

/** A template variant: `change` applied to the Properties of the resource at `path`. */
export function withProperties(path: string, change: (properties: Record<string, unknown>) => void): TemplateEdit {
  return (template) => {
    const properties = valueAt(template.Resources[logicalIdAt(template, path)], 'Properties');
    if (!isRecord(properties)) throw new Error(`the resource at …${path} has no properties`);
    change(properties);
    return template;
  };
}

/** A template variant: `name=value` added to the environment of the function at `functionPath`. */
export function withFunctionVariable(functionPath: string, name: string, value: string): TemplateEdit {
  return withProperties(functionPath, (properties) => {
    const variables = valueAt(properties, 'Environment', 'Variables');
    if (!isRecord(variables)) throw new Error(`the function at …${functionPath} has no environment variables`);
    variables[name] = value;
  });
}

/** Edits applied in order. */
export function allOf(...edits: TemplateEdit[]): TemplateEdit {
  return (template) => edits.reduce((edited, edit) => edit(edited), template);
}
