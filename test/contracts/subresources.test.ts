/**
 * The subresources capless serves for a kind are its CRD's: `status` and `scale` (with the same
 * replica and selector paths), compared version by version with the CRDs of Cluster API, Cluster
 * API Provider AWS and the in-cluster IPAM provider under ../shared/capi-samples. Those files live
 * outside the repository; without them the comparison is skipped with the reason
 * (test/unit/api/scale-subresource.test.ts covers the routes inline).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { customResourceDefinition } from '../../shared/contracts/crds/custom-resource-definition.js';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';

const SAMPLES = fileURLToPath(new URL('../../../shared/capi-samples/', import.meta.url));
const FOLDERS = ['crds', 'capa', 'ipam'];

interface VersionSubresources {
  file: string;
  group: string;
  kind: string;
  version: string;
  subresources: unknown;
}

function upstreamSubresources(): VersionSubresources[] {
  return FOLDERS.flatMap((folder) => {
    const dir = `${SAMPLES}${folder}/`;
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((file) => file.endsWith('.yaml'))
      .flatMap((file) => parseAllDocuments(readFileSync(`${dir}${file}`, 'utf8')).map((doc): { file: string; crd: unknown } => ({ file, crd: doc.toJS() })))
      .flatMap(({ file, crd }): VersionSubresources[] => {
        if (!isRecord(crd) || crd.kind !== 'CustomResourceDefinition' || !isRecord(crd.spec) || !Array.isArray(crd.spec.versions)) return [];
        const group = String(crd.spec.group);
        const kind = stringAt(crd.spec, 'names', 'kind') ?? '';
        return crd.spec.versions.map((v) => ({ file: `${folder}/${file}`, group, kind, version: stringAt(v, 'name') ?? '', subresources: isRecord(v) ? v.subresources : undefined }));
      });
  });
}

function servedSubresources(group: string, kind: string, version: string): unknown {
  const info = defaultKinds.get(group, kind);
  if (!info) return undefined;
  const crd = customResourceDefinition(info, { creationTimestamp: '2026-01-01T00:00:00Z' });
  const versions = isRecord(crd.spec) && Array.isArray(crd.spec.versions) ? crd.spec.versions : [];
  const served = versions.find((v) => stringAt(v, 'name') === version);
  return isRecord(served) ? (served.subresources ?? {}) : undefined;
}

const all = upstreamSubresources();
const compared = all.filter((v) => defaultKinds.get(v.group, v.kind)?.versions.includes(v.version));

describe("subresources are the upstream CRDs'", () => {
  if (all.length === 0) it('upstream CRDs', (context) => context.skip(`${SAMPLES} is absent: subresources not compared with the upstream CRDs`));
  it('compares every kind capless serves that has an upstream CRD here', (context) => {
    if (all.length === 0) context.skip(`${SAMPLES} is absent: nothing to compare`);
    expect(new Set(compared.map((v) => v.kind))).toEqual(
      new Set(['Cluster', 'Machine', 'MachineSet', 'MachineDeployment', 'MachineHealthCheck', 'ClusterClass', 'KubeadmConfig', 'KubeadmConfigTemplate', 'KubeadmControlPlane',
        'IPAddressClaim', 'IPAddress', 'ExtensionConfig', 'Metadata', 'Provider', 'AWSCluster', 'AWSClusterTemplate', 'AWSMachine', 'AWSMachineTemplate', 'InClusterIPPool', 'GlobalInClusterIPPool']),
    );
  });
  it.each(compared.map((v) => [`${v.file} ${v.version}`, v] as const))('%s', (_name, upstream) => {
    expect(servedSubresources(upstream.group, upstream.kind, upstream.version)).toEqual(upstream.subresources ?? {});
  });
});
