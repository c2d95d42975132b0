import { describe, expect, it } from 'vitest';
import { checkPathAgreement } from '../../../functions/api/path-admission.js';
import { defaultKinds } from '../../../shared/contracts/kinds.js';
import { InvalidError } from '../../../shared/errors/index.js';

function target(group: string, kind: string) {
  const info = defaultKinds.get(group, kind);
  if (!info) throw new Error(`no kind ${kind}`);
  return { info, version: info.versions[0] ?? '', namespace: 'default' };
}

const CLUSTERCTL = 'clusterctl.cluster.x-k8s.io';

/**
 * clusterctl's inventory kinds keep their fields at the top level; the closed envelope must let
 * exactly those through (the upstream clusterctl-metadata.yaml sample was rejected) and still
 * reject unknown top-level fields everywhere else.
 */
describe('checkPathAgreement and kinds with top-level fields', () => {
  it.each<[string, string, string, Record<string, unknown>]>([
    ['clusterctl Metadata with releaseSeries', CLUSTERCTL, 'Metadata', { releaseSeries: [{ major: 1, minor: 14, contract: 'v1beta2' }] }],
    ['clusterctl Provider with its fields', CLUSTERCTL, 'Provider', { providerName: 'aws', type: 'InfrastructureProvider', version: 'v2.8.0', watchedNamespace: '' }],
  ])('accepts %s', (_name, group, kind, fields) => {
    const body = { apiVersion: `${group}/v1alpha3`, kind, metadata: { name: 'x' }, ...fields };
    expect(checkPathAgreement(body, target(group, kind))).toBe(body);
  });

  it.each<[string, string, string, Record<string, unknown>, string]>([
    ['releaseSeries on a Cluster', 'cluster.x-k8s.io', 'Cluster', { releaseSeries: [] }, 'releaseSeries'],
    ['an unknown field on Metadata', CLUSTERCTL, 'Metadata', { releaseSeriez: [] }, 'releaseSeriez'],
    ['a Provider field on Metadata', CLUSTERCTL, 'Metadata', { providerName: 'aws' }, 'providerName'],
  ])('rejects %s', (_name, group, kind, fields, field) => {
    const version = group === CLUSTERCTL ? 'v1alpha3' : 'v1beta2';
    const body = { apiVersion: `${group}/${version}`, kind, metadata: { name: 'x' }, ...fields };
    let error: unknown;
    try {
      checkPathAgreement(body, target(group, kind));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidError);
    expect(error instanceof InvalidError ? error.causes.map((c) => c.field) : []).toEqual([field]);
  });
});
