import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { isRecord } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';
import { openApiV3ForGroupVersion, schemaName, servedGroupVersions } from '../../shared/contracts/openapi.js';
import { ctx, kubeadmControlPlane, machine, machineDeployment, secret } from './admission-fixtures.js';

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/** Structural JSON Schema check: every node is an object, types are known, required names exist. */
function schemaProblems(node: unknown, at: string): string[] {
  if (!isRecord(node)) return [`${at}: not an object`];
  const problems: string[] = [];
  if (node.type !== undefined && !(typeof node.type === 'string' && TYPES.has(node.type))) problems.push(`${at}: bad type`);
  const properties = isRecord(node.properties) ? node.properties : {};
  if (Array.isArray(node.required)) {
    for (const name of node.required) if (typeof name !== 'string' || !(name in properties)) problems.push(`${at}: required ${String(name)}`);
  }
  for (const [key, child] of Object.entries(properties)) problems.push(...schemaProblems(child, `${at}.${key}`));
  if (node.items !== undefined) problems.push(...schemaProblems(node.items, `${at}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [i, child] of list.entries()) problems.push(...schemaProblems(child, `${at}.${key}[${i}]`));
  }
  return problems;
}

describe('openApiV3ForGroupVersion', () => {
  const groupVersions = servedGroupVersions();

  it('covers every group/version served by the built-in kinds', () => {
    expect(groupVersions).toContainEqual({ group: 'cluster.x-k8s.io', version: 'v1beta2' });
    expect(groupVersions).toContainEqual({ group: '', version: 'v1' });
  });

  it.each(groupVersions.map(({ group, version }) => [group || 'core', version, group]))(
    '%s/%s is non-empty and made of valid schemas',
    (_label, version, group) => {
      const doc = openApiV3ForGroupVersion(group, version);
      expect(doc?.openapi).toBe('3.0.0');
      const schemas = Object.entries(doc?.components.schemas ?? {});
      expect(schemas.length).toBeGreaterThan(0);
      for (const [name, schema] of schemas) {
        expect(schemaProblems(schema, name)).toEqual([]);
        expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group, version, kind: name.split('.').pop() }]);
        expect(() => z.fromJSONSchema(JSON.parse(JSON.stringify(schema)), { defaultTarget: 'openapi-3.0' })).not.toThrow();
      }
    },
  );

  it('keys schemas like Kubernetes does', () => {
    expect(schemaName('cluster.x-k8s.io', 'v1beta2', 'Cluster')).toBe('io.x-k8s.cluster.v1beta2.Cluster');
    expect(schemaName('', 'v1', 'Secret')).toBe('io.k8s.api.core.v1.Secret');
    expect(Object.keys(openApiV3ForGroupVersion('controlplane.cluster.x-k8s.io', 'v1beta2')?.components.schemas ?? {})).toContain(
      'io.x-k8s.cluster.controlplane.v1beta2.KubeadmControlPlane',
    );
  });

  it('is undefined for a group/version nothing is served in', () => {
    expect(openApiV3ForGroupVersion('cluster.x-k8s.io', 'v1alpha4')).toBeUndefined();
  });

  it.each([
    ['Machine', machine()],
    ['MachineDeployment', machineDeployment()],
    ['KubeadmControlPlane', kubeadmControlPlane()],
    ['Secret', secret()],
  ])('the published %s schema accepts what admission stores', (_kind, obj) => {
    const admitted = admitCreate(obj, ctx);
    const [group = '', version = ''] = admitted.apiVersion.includes('/') ? admitted.apiVersion.split('/') : ['', admitted.apiVersion];
    const doc = openApiV3ForGroupVersion(group, version, defaultKinds);
    const schema = doc?.components.schemas[schemaName(group, version, admitted.kind)];
    const rebuilt = z.fromJSONSchema(JSON.parse(JSON.stringify(schema)), { defaultTarget: 'openapi-3.0' });
    expect(rebuilt.safeParse(admitted).success).toBe(true);
    expect(rebuilt.safeParse({ ...admitted, metadata: { name: 'Not_Valid' } }).success).toBe(false);
  });
});
