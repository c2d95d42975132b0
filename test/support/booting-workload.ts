/**
 * A workload cluster for AWS scenarios on an emulator: when asked for the Node of a providerID
 * whose instance runs, it first "boots" the instance the way CAPA's user data does (read the
 * user data, fetch the Secrets Manager chunks the boot script names, gunzip them) and records the
 * bootstrap data the instance would have run; only then does kubelet "register" the Node.
 * Instances whose user data cannot be resolved never get a Node. A Node registers with the taint
 * kubeadm's JoinConfiguration in that bootstrap data gives it (`node.cluster.x-k8s.io/uninitialized`
 * on workers), and keeps the labels, annotations and taints patched onto it. An instance whose
 * bootstrap data runs `kubeadm init` or joins as a control plane runs kubeadm's static Pods and a
 * member of the cluster's stacked etcd, as kubeadm would start them.
 */


import { gunzipSync } from 'node:zlib';
import { DescribeInstanceAttributeCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { AwsCloudFactory } from '../../shared/ports/aws-cloud.js';
import type { EtcdNode, WorkloadClusterRef, WorkloadNode } from '../../shared/ports/workload-cluster.js';
import { UNINITIALIZED_TAINT } from '../../shared/kubeadm/index.js';
import { SimulatedWorkloadCluster } from '../../shared/workload-cluster/simulated-workload-cluster.js';
import { parseAwsProviderID, regionOfZone } from '../../functions/reconcile/infrastructure/aws/common/cluster-network.js';

export interface BootedInstance {
  instanceId: string;
  bootstrapData: string;
  viaSecretsManager: boolean;
}

/** kubeadm init, or a JoinConfiguration with a `controlPlane` section. */
const CONTROL_PLANE_BOOT = /kubeadm init|^\s*controlPlane:/m;

export class BootingWorkloadCluster extends SimulatedWorkloadCluster {
  readonly booted = new Map<string, BootedInstance>();
  /** The Node each booted instance registered, by instance ID. */
  private readonly nodes = new Map<string, EtcdNode>();
  private readonly clients = new Map<string, EC2Client>();

  constructor(private readonly cloud: AwsCloudFactory) {
    super();
  }

  async findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    const parsed = parseAwsProviderID(providerID);
    if (!parsed) return undefined;
    const region = regionOfZone(parsed.availabilityZone);
    const [instance] = await this.cloud.forRegion(region).ec2.describeInstances({ ids: [parsed.instanceId] });
    if (instance?.state !== 'running') return undefined;
    if (!this.booted.has(instance.id)) {
      const booted = await this.boot(region, instance.id);
      if (!booted) return undefined;
      this.booted.set(instance.id, booted);
    }
    const registered = this.booted.get(instance.id)?.bootstrapData.includes(UNINITIALIZED_TAINT.key) ? [UNINITIALIZED_TAINT] : [];
    const name = instance.privateDnsName ?? instance.id;
    this.nodes.set(instance.id, { name, providerID });
    return this.objects.node(cluster, { name, ready: true }, registered);
  }

  /** The Nodes of booted control-plane instances (their etcd members stay until removed, as etcd keeps them). */
  protected override async etcdNodes(_cluster: WorkloadClusterRef, through: EtcdNode): Promise<EtcdNode[] | undefined> {
    const nodes = [...this.nodes.entries()].filter(([id]) => CONTROL_PLANE_BOOT.test(this.booted.get(id)?.bootstrapData ?? '')).map(([, node]) => node);
    return nodes.some((node) => node.name === through.name && node.providerID === through.providerID) ? nodes : undefined;
  }

  protected override async controlPlaneNode(cluster: WorkloadClusterRef, node: EtcdNode): Promise<WorkloadNode | undefined> {
    const runsEtcd = (await this.etcdNodes(cluster, node)) !== undefined;
    const found = runsEtcd ? await this.findNodeByProviderID(cluster, node.providerID) : undefined;
    return found?.name === node.name ? found : undefined;
  }

  private async boot(region: string, instanceId: string): Promise<BootedInstance | undefined> {
    let client = this.clients.get(region);
    if (!client) {
      client = new EC2Client({ region });
      this.clients.set(region, client);
    }
    const out = await client.send(new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }));
    const userData = Buffer.from(out.UserData?.Value ?? '', 'base64');
    const text = userData.toString('utf8');
    const prefix = /SECRET_PREFIX="([^"]+)"/.exec(text)?.[1];
    const chunks = Number(/CHUNKS="(\d+)"/.exec(text)?.[1]);
    if (!prefix || !Number.isInteger(chunks)) return { instanceId, bootstrapData: gunzipSync(userData).toString('utf8'), viaSecretsManager: false };
    const parts: Buffer[] = [];
    for (let i = 0; i < chunks; i++) {
      const part = await this.cloud.forRegion(region).secrets.getSecret(`${prefix}-${i}`);
      if (!part) return undefined;
      parts.push(Buffer.from(part));
    }
    return { instanceId, bootstrapData: gunzipSync(Buffer.concat(parts)).toString('utf8'), viaSecretsManager: true };
  }

  destroy(): void {
    for (const client of this.clients.values()) client.destroy();
  }
}
