/** Objects for AWS provider scenarios: a Cluster on an AWSCluster, machines on AWSMachines. */

import type { KubeObject } from '../../shared/contracts/object.js';

export const NS = 'default';
const INFRA = 'infrastructure.cluster.x-k8s.io';
export const AMI = 'ami-0123456789abcdef0';

export function awsClusterObjects(name: string, awsClusterSpec: Record<string, unknown> = {}): KubeObject[] {
  return [
    {
      apiVersion: `${INFRA}/v1beta2`,
      kind: 'AWSCluster',
      metadata: { name, namespace: NS },
      spec: { region: 'us-east-1', sshKeyName: '', controlPlaneLoadBalancer: { loadBalancerType: 'nlb' }, ...awsClusterSpec },
    },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name, namespace: NS },
      spec: { infrastructureRef: { apiGroup: INFRA, kind: 'AWSCluster', name } },
    },
  ];
}

/** A standalone Machine with ready bootstrap data, on its own AWSMachine. */
export function awsStandaloneMachine(name: string, cluster: string, controlPlane: boolean, bootstrap = `#cloud-config\n# bootstrap of ${name}\n`): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'cluster.x-k8s.io/secret',
      metadata: { name: `${name}-bootstrap`, namespace: NS, labels: { 'cluster.x-k8s.io/cluster-name': cluster } },
      data: { value: Buffer.from(bootstrap).toString('base64'), format: Buffer.from('cloud-config').toString('base64') },
    },
    {
      apiVersion: `${INFRA}/v1beta2`,
      kind: 'AWSMachine',
      metadata: { name, namespace: NS },
      spec: { instanceType: 't3.large', ami: { id: AMI }, iamInstanceProfile: controlPlane ? 'control-plane.cluster-api-provider-aws.sigs.k8s.io' : 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
    },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      metadata: { name, namespace: NS, labels: controlPlane ? { 'cluster.x-k8s.io/control-plane': '' } : {} },
      spec: {
        clusterName: cluster,
        version: 'v1.32.0',
        bootstrap: { dataSecretName: `${name}-bootstrap` },
        infrastructureRef: { apiGroup: INFRA, kind: 'AWSMachine', name },
      },
    },
  ];
}
