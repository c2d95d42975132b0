/**
 * Inline patch application with the patches of Cluster API's quick-start ClusterClass
 * (test/e2e/data/infrastructure-docker/main/clusterclass-quick-start.yaml) as test vectors.
 */

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { valueAt } from '../../../shared/contracts/json.js';
import { clusterClassPatchSchema } from '../../../shared/contracts/schemas/core/cluster-class.js';
import { applyOperation } from '../../../functions/reconcile/topology/cluster/json-patch.js';
import { applyInlinePatches, matchesName, type PatchItem, TopologyPatchError, variableAt } from '../../../functions/reconcile/topology/cluster/patches.js';

const QUICK_START_PATCHES = parse(`
- name: imageRepository
  enabledIf: '{{ ne .imageRepository "" }}'
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository
      valueFrom: {variable: imageRepository}
- name: etcdImageTag
  enabledIf: '{{ ne .etcdImageTag "" }}'
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd
      valueFrom:
        template: |
          local:
            imageTag: {{ .etcdImageTag }}
- name: customImage
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachineTemplate, matchResources: {machineDeploymentClass: {names: [default-worker]}}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/backend/docker/customImage
      valueFrom:
        template: |
          kindest/node:{{ .builtin.machineDeployment.version | replace "+" "_" }}
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachineTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/backend/docker/customImage
      valueFrom:
        template: |
          kindest/node:{{ .builtin.controlPlane.version | replace "+" "_" }}
- name: podSecurityStandard
  enabledIf: "{{ .podSecurityStandard.enabled }}"
  definitions:
  - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
    jsonPatches:
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer/extraArgs
      value:
      - name: admission-control-config-file
        value: /etc/kubernetes/kube-apiserver-admission-pss.yaml
    - op: add
      path: /spec/template/spec/kubeadmConfigSpec/files
      valueFrom:
        template: |
          - content: |
              apiVersion: pod-security.admission.config.k8s.io/v1{{ if semverCompare "< v1.25-0" .builtin.controlPlane.version }}beta1{{ end }}
              enforce: "{{ .podSecurityStandard.enforce }}"
            path: /etc/kubernetes/kube-apiserver-admission-pss.yaml
`).map((p: unknown) => clusterClassPatchSchema.parse(p));

function items(variables: Record<string, unknown>, cpVersion = 'v1.33.0', mdVersion = 'v1.32.0+build.1'): PatchItem[] {
  const builtin = { cluster: { name: 'c1' }, controlPlane: { version: cpVersion } };
  return [
    {
      role: 'ControlPlane',
      description: 'control plane template',
      template: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', spec: { template: { spec: { kubeadmConfigSpec: { clusterConfiguration: { apiServer: { certSANs: ['localhost'] } } } } } } },
      variables: { ...variables, builtin },
    },
    {
      role: 'ControlPlaneMachineInfrastructure',
      description: 'control plane machine template',
      template: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', spec: { template: { spec: { backend: { docker: {} } } } } },
      variables: { ...variables, builtin },
    },
    {
      role: 'MachineDeploymentInfrastructure',
      machineDeploymentClass: 'default-worker',
      description: 'MachineDeployment md-0 infrastructure template',
      template: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', spec: { template: { spec: { backend: { docker: {} } } } } },
      variables: { ...variables, builtin: { ...builtin, machineDeployment: { version: mdVersion, topologyName: 'md-0' } } },
    },
  ];
}

const base = { imageRepository: '', etcdImageTag: '', podSecurityStandard: { enabled: false, enforce: 'baseline' } };

describe('quick-start inline patches', () => {
  it.each<[string, Record<string, unknown>, number, string[], unknown]>([
    ['imageRepository set', { ...base, imageRepository: 'registry.example/k8s' }, 0, ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration', 'imageRepository'], 'registry.example/k8s'],
    ['imageRepository empty: enabledIf false', base, 0, ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration', 'imageRepository'], undefined],
    ['etcd tag from a template', { ...base, etcdImageTag: '3.5.3-0' }, 0, ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration', 'etcd'], { local: { imageTag: '3.5.3-0' } }],
    ['worker custom image with replace', base, 2, ['spec', 'template', 'spec', 'backend', 'docker', 'customImage'], 'kindest/node:v1.32.0_build.1'],
    ['control-plane custom image', base, 1, ['spec', 'template', 'spec', 'backend', 'docker', 'customImage'], 'kindest/node:v1.33.0'],
    ['literal value patch', { ...base, podSecurityStandard: { enabled: true, enforce: 'restricted' } }, 0, ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration', 'apiServer', 'extraArgs'], [{ name: 'admission-control-config-file', value: '/etc/kubernetes/kube-apiserver-admission-pss.yaml' }]],
    ['existing fields stay', base, 0, ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration', 'apiServer', 'certSANs'], ['localhost']],
  ])('%s', (_name, variables, index, path, expected) => {
    const patched = applyInlinePatches(QUICK_START_PATCHES, items(variables));
    expect(valueAt(patched[index]?.template, ...path)).toEqual(expected);
  });

  it.each([
    ['v1.33.0', 'apiVersion: pod-security.admission.config.k8s.io/v1\nenforce: "restricted"\n'],
    ['v1.24.3', 'apiVersion: pod-security.admission.config.k8s.io/v1beta1\nenforce: "restricted"\n'],
  ])('the PodSecurity file follows semverCompare on the control-plane version %s', (version, content) => {
    const patched = applyInlinePatches(QUICK_START_PATCHES, items({ ...base, podSecurityStandard: { enabled: true, enforce: 'restricted' } }, version));
    expect(valueAt(patched[0]?.template, 'spec', 'template', 'spec', 'kubeadmConfigSpec', 'files')).toEqual([
      { content, path: '/etc/kubernetes/kube-apiserver-admission-pss.yaml' },
    ]);
  });

  it('a template that fails to render names the patch and the item', () => {
    const broken = clusterClassPatchSchema.parse({
      name: 'broken',
      definitions: [{ selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/spec/x', valueFrom: { template: '{{ .builtin.nothere.name }}' } }] }],
    });
    expect(() => applyInlinePatches([broken], items(base))).toThrow(TopologyPatchError);
    expect(() => applyInlinePatches([broken], items(base))).toThrow(/patch "broken" failed on the control plane machine template: nil pointer/);
  });

  it('computing twice from the same inputs gives the same templates', () => {
    const variables = { ...base, etcdImageTag: 'x', podSecurityStandard: { enabled: true, enforce: 'baseline' } };
    expect(applyInlinePatches(QUICK_START_PATCHES, items(variables))).toEqual(applyInlinePatches(QUICK_START_PATCHES, items(variables)));
  });
});

describe('patch helpers', () => {
  it.each([
    ['*', 'anything', true],
    ['default-*', 'default-worker', true],
    ['*-worker', 'default-worker', true],
    ['default-worker', 'default-worker', true],
    ['gpu-*', 'default-worker', false],
  ])('name pattern %s against %s is %s', (pattern, name, expected) => {
    expect(matchesName(pattern, name)).toBe(expected);
  });

  it.each([
    ['a.b', { a: { b: 1 } }, 1],
    ['list[1].name', { list: [{ name: 'x' }, { name: 'y' }] }, 'y'],
    ['a.missing', { a: {} }, undefined],
  ])('variable %s', (path, variables, expected) => {
    expect(variableAt(variables, path)).toEqual(expected);
  });

  it.each([
    [{ op: 'add' as const, path: '/spec/a/b', value: 1 }, { spec: { list: [1, 2], a: { b: 1 } } }],
    [{ op: 'add' as const, path: '/spec/list/-', value: 3 }, { spec: { list: [1, 2, 3] } }],
    [{ op: 'add' as const, path: '/spec/list/0', value: 0 }, { spec: { list: [0, 1, 2] } }],
    [{ op: 'replace' as const, path: '/spec/list/1', value: 9 }, { spec: { list: [1, 9] } }],
    [{ op: 'remove' as const, path: '/spec/list/0' }, { spec: { list: [2] } }],
  ])('json patch %j', (operation, expected) => {
    expect(applyOperation({ spec: { list: [1, 2] } }, operation)).toEqual(expected);
  });

  it('replace of a missing field is an error', () => {
    expect(() => applyOperation({ spec: {} }, { op: 'replace', path: '/spec/x', value: 1 })).toThrow(/does not exist/);
  });
});
