/**
 * A workload cluster whose Nodes are the running instances of an in-memory EC2: a Node exists for
 * a providerID once the instance it names is running (as kubelet registers it), with the kubelet
 * version of the Machine that owns the AWSMachine. Stands in for the workload API in unit scenarios.
 */

import { stringAt } from '../../shared/contracts/json.js';
import { controllerOf } from '../../shared/contracts/object.js';
import { AWS_MACHINE_KIND } from '../../shared/contracts/providers/aws/aws-kinds.js';
import type { InMemoryAwsCloudFactory } from '../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { WorkloadClusterRef, WorkloadNode } from '../../shared/ports/workload-cluster.js';
import { SimulatedWorkloadCluster } from '../../shared/workload-cluster/simulated-workload-cluster.js';
import { parseAwsProviderID, regionOfZone } from '../../functions/reconcile/infrastructure/aws/common/cluster-network.js';

export class Ec2WorkloadNodes extends SimulatedWorkloadCluster {
  constructor(
    private readonly cloud: InMemoryAwsCloudFactory,
    private readonly store: ObjectStore,
  ) {
    super();
  }

  async findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    const parsed = parseAwsProviderID(providerID);
    if (!parsed) return undefined;
    const instance = this.cloud.forRegion(regionOfZone(parsed.availabilityZone)).ec2.instances.get(parsed.instanceId);
    if (instance?.state !== 'running') return undefined;
    const { items } = await this.store.list({ ...AWS_MACHINE_KIND, namespace: cluster.namespace });
    const awsMachine = items.find((m) => stringAt(m, 'spec', 'providerID') === providerID);
    const owner = awsMachine ? controllerOf(awsMachine) : undefined;
    const machine = owner ? await this.store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: cluster.namespace, name: owner.name }) : undefined;
    const version = stringAt(machine, 'spec', 'version');
    return this.objects.node(cluster, { name: instance.privateDnsName ?? instance.id, ready: true, ...(version ? { info: { kubeletVersion: version } } : {}) });
  }
}
