/**
 * `status.nodeInfo` as CAPA's getNodeInfo resolves it, in order: the image `spec.ami.id` names;
 * else the default image for the Kubernetes version of a MachineSet, MachineDeployment or
 * KubeadmControlPlane of the cluster that clones the template (architecture from the instance
 * type); else the instance type's architecture alone (the operating system stays unknown, and a
 * later reconcile, such as the creation of that MachineDeployment, completes it).
 */

import { stringAt } from '../../../../../shared/contracts/json.js';
import { type GroupKind, groupOf, type StoredObject } from '../../../../../shared/contracts/object.js';
import { CONTROL_PLANE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import { isCloudApiError, TerminalError } from '../../../../../shared/errors/index.js';
import type { Ec2Instances, Image } from '../../../../../shared/ports/ec2.js';
import { listClusterMembers, MACHINE_DEPLOYMENT, MACHINE_SET } from '../../../engine/references/cluster-members.js';
import type { PhaseResult, ReferrerField } from '../../../engine/skeleton/types.js';
import { imageById, imageLookupOf, newestDefaultImage } from '../machine/image-lookup.js';
import { refusedForGood } from './cloud-refusals.js';
import type { Architecture, AwsMachineTemplateScope, NodeInfo } from './scope.js';

const KUBEADM_CONTROL_PLANE: GroupKind = { group: CONTROL_PLANE_GROUP, kind: 'KubeadmControlPlane' };

/** EC2's architecture names and CAPA's. */
const ARCHITECTURES: Readonly<Record<string, Architecture>> = { x86_64: 'amd64', arm64: 'arm64' };

/** CAPA's extractNodeInfoFromImage: Linux unless EC2 says Windows. */
export function nodeInfoOfImage(image: Pick<Image, 'architecture' | 'platform' | 'platformDetails'>): NodeInfo {
  const architecture = image.architecture ? ARCHITECTURES[image.architecture] : undefined;
  const windows = image.platform === 'windows' || (image.platformDetails ?? '').toLowerCase().includes('windows');
  return { ...(architecture ? { architecture } : {}), operatingSystem: windows ? 'windows' : 'linux' };
}

interface Cloner {
  kind: GroupKind;
  /** Where it names the infrastructure template it clones. */
  reference: ReferrerField;
  /** Where it keeps the Kubernetes version of what it clones. */
  version: readonly string[];
}

/** The kinds that clone an infrastructure template, in the order CAPA asks them for a version. */
export const TEMPLATE_CLONERS: readonly Cloner[] = [
  { kind: MACHINE_SET, reference: 'spec.template.spec.infrastructureRef', version: ['spec', 'template', 'spec', 'version'] },
  { kind: MACHINE_DEPLOYMENT, reference: 'spec.template.spec.infrastructureRef', version: ['spec', 'template', 'spec', 'version'] },
  { kind: KUBEADM_CONTROL_PLANE, reference: 'spec.machineTemplate.spec.infrastructureRef', version: ['spec', 'version'] },
];

/** The version of the first object of the owning Cluster that clones this template and names one. */
export function kubernetesVersionOf(template: StoredObject, members: readonly StoredObject[]): string | undefined {
  for (const cloner of TEMPLATE_CLONERS) {
    const reference = cloner.reference.split('.');
    for (const member of members) {
      if (member.kind !== cloner.kind.kind || groupOf(member.apiVersion) !== cloner.kind.group) continue;
      const clones = stringAt(member, ...reference, 'kind') === template.kind && stringAt(member, ...reference, 'name') === template.metadata.name;
      const version = stringAt(member, ...cloner.version);
      if (clones && version) return version;
    }
  }
  return undefined;
}

async function defaultImageNodeInfo(s: AwsMachineTemplateScope, ec2: Ec2Instances, architecture: string): Promise<NodeInfo | undefined> {
  const clusterName = s.cluster?.metadata.name;
  if (!clusterName) return undefined;
  const members = await listClusterMembers(s.ctx.store, s.object.metadata.namespace, clusterName, TEMPLATE_CLONERS.map((c) => c.kind));
  const version = kubernetesVersionOf(s.object, members);
  if (!version) return undefined;
  try {
    return nodeInfoOfImage(await newestDefaultImage(ec2, imageLookupOf(s.machineSpec, s.awsCluster), version, architecture));
  } catch (error) {
    // No such image (or the lookup failed): CAPA falls back to the architecture; throttling is retried instead.
    if (isCloudApiError(error) && !error.throttled) return undefined;
    throw error;
  }
}

export async function nodeInfoPhase(s: AwsMachineTemplateScope): Promise<PhaseResult> {
  const ec2 = s.cloud?.ec2;
  if (!ec2 || !s.instanceType) return { stop: true };
  const amiId = stringAt(s.machineSpec, 'ami', 'id');
  if (amiId) {
    const image = await refusedForGood(() => imageById(ec2, amiId));
    if (!image) throw new TerminalError('InvalidAMIID.NotFound', `no information found for AMI "${amiId}"`);
    s.nodeInfo = nodeInfoOfImage(image);
    return {};
  }
  const supported = s.instanceType.architectures;
  const [ec2Architecture] = supported;
  const architecture = supported.length === 1 && ec2Architecture ? ARCHITECTURES[ec2Architecture] : undefined;
  if (!ec2Architecture || !architecture) {
    throw new TerminalError('UnsupportedArchitecture', `instance type ${s.instanceType.instanceType} must support exactly one of x86_64, arm64; it supports [${supported.join(', ')}]`);
  }
  s.nodeInfo = (await defaultImageNodeInfo(s, ec2, ec2Architecture)) ?? { architecture };
  return {};
}
