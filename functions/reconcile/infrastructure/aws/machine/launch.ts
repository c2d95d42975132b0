/**
 * Launching an AWSMachine's instance, never twice:
 * 1. the secret prefix and chunk count go into spec before any secret exists (deletion finds them);
 * 2. RunInstances carries ClientToken = the AWSMachine's uid (EC2 returns the first instance on a
 *    retry) and CAPA's tags (the next run finds the instance by them whatever happened);
 * 3. the instance id and providerID are written to spec straight after, before anything else.
 * A crash between any two steps leaves state the next run recognises.
 */

import { booleanAt, numberAt, recordAt, stringAt, stringEntriesOf } from '../../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import { instanceTags, type Tags, userDataSecretTags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { Ec2Instances, Ec2Network, Ec2SecurityGroups, Instance, RunInstanceRequest } from '../../../../../shared/ports/ec2.js';
import { updateFresh } from '../../../engine/references/update-fresh.js';
import { awsProviderID, type ClusterNetwork, readClusterNetwork } from '../common/cluster-network.js';
import { findImage } from './image-lookup.js';
import { instanceMetadataOptions } from './metadata-options.js';
import { launchVolumes } from './volumes.js';
import type { AwsMachineScope } from './scope.js';
import { marketOptions, placementOptions } from './market-and-placement.js';
import { chosenSubnet, coreSecurityGroups } from './placement.js';
import { planUserData } from './user-data.js';

export function tagsFor(s: AwsMachineScope, clusterName: string): Tags {
  return instanceTags({
    cluster: clusterName,
    awsMachine: s.object.metadata.name,
    namespace: s.object.metadata.namespace,
    machine: s.machine?.metadata.name ?? s.object.metadata.name,
    controlPlane: s.controlPlane,
    clusterAdditionalTags: stringEntriesOf(s.awsCluster?.spec?.additionalTags),
    machineAdditionalTags: stringEntriesOf(s.object.spec?.additionalTags),
  });
}

async function bootstrapData(s: AwsMachineScope): Promise<Uint8Array> {
  const name = stringAt(s.machine, 'spec', 'bootstrap', 'dataSecretName') ?? '';
  const secret = await s.ctx.store.get({ group: '', kind: 'Secret', namespace: s.object.metadata.namespace, name });
  const value = secret?.data?.value;
  if (value === undefined) throw new CloudApiError('ReadBootstrapData', 'BootstrapDataNotFound', `Secret ${name} has no data.value`);
  return Buffer.from(value, 'base64');
}

/** Records fields in spec on a fresh copy (the object may have moved on since it was read). */
async function recordSpec(s: AwsMachineScope, fields: (current: StoredObject) => Record<string, unknown> | undefined): Promise<void> {
  const written = await updateFresh(s.ctx.store, s.object, (current) => {
    const changes = fields(current);
    return changes ? { ...current, spec: { ...current.spec, ...changes } } : undefined;
  });
  if (written) s.object = written;
}

export async function recordInstance(s: AwsMachineScope, instance: Instance): Promise<void> {
  const providerID = awsProviderID(instance.availabilityZone ?? '', instance.id);
  await recordSpec(s, (current) =>
    stringAt(current, 'spec', 'instanceID') === instance.id && stringAt(current, 'spec', 'providerID') === providerID
      ? undefined
      : { instanceID: instance.id, providerID },
  );
}

export async function launchInstance(s: AwsMachineScope, ec2: Ec2Instances & Pick<Ec2Network, 'describeSubnets'> & Pick<Ec2SecurityGroups, 'describeSecurityGroups'>, clusterName: string): Promise<Instance> {
  const network: ClusterNetwork | undefined = readClusterNetwork(s.awsCluster);
  if (!network) throw new CloudApiError('RunInstances', 'NetworkNotReady', 'the AWSCluster has not recorded its network yet');
  const region = s.region ?? '';
  const tags = tagsFor(s, clusterName);
  const image = await findImage(s, ec2);
  const volumes = await launchVolumes(s.object.spec, ec2, image);
  const subnetId = await chosenSubnet(s, network, ec2);
  const securityGroupIds = await coreSecurityGroups(s, network, ec2);
  const plan = planUserData({
    bootstrapData: await bootstrapData(s),
    uid: s.object.metadata.uid,
    region,
    insecureSkipSecretsManager: booleanAt(s.object, 'spec', 'cloudInit', 'insecureSkipSecretsManager') === true,
    uncompressedUserData: booleanAt(s.object, 'spec', 'uncompressedUserData') === true,
  });
  if (plan.secretPrefix) {
    const prefix = plan.secretPrefix;
    const count = plan.secrets.length;
    await recordSpec(s, (current) =>
      stringAt(current, 'spec', 'cloudInit', 'secretPrefix') === prefix && numberAt(current, 'spec', 'cloudInit', 'secretCount') === count
        ? undefined
        : { cloudInit: { ...recordAt(current, 'spec', 'cloudInit'), secretPrefix: prefix, secretCount: count, secureSecretsBackend: 'secrets-manager' } },
    );
    const secretTags = userDataSecretTags(tags);
    for (const secret of plan.secrets) await s.cloud?.secrets.createSecret({ ...secret, tags: secretTags });
  }
  const instance = await ec2.runInstance({
    clientToken: s.object.metadata.uid,
    imageId: image.id,
    instanceType: stringAt(s.object, 'spec', 'instanceType') ?? '',
    subnetId,
    securityGroupIds,
    userData: plan.userData,
    tags,
    ...optionalLaunchFields(s),
    ...(volumes.length > 0 ? { volumes } : {}),
  });
  await recordInstance(s, instance);
  return instance;
}

function optionalLaunchFields(s: AwsMachineScope): Pick<RunInstanceRequest, 'iamInstanceProfile' | 'keyName' | 'publicIp' | 'metadataOptions' | 'spot' | 'placement'> {
  const profile = stringAt(s.object, 'spec', 'iamInstanceProfile');
  const publicIp = booleanAt(s.object, 'spec', 'publicIP');
  return {
    ...(profile ? { iamInstanceProfile: profile } : {}),
    ...sshKey(s),
    ...(publicIp !== undefined ? { publicIp } : {}),
    metadataOptions: instanceMetadataOptions(s.object.spec),
    ...marketOptions(s.object.spec),
    ...placementOptions(s.object.spec),
  };
}

/** CAPA: the machine's key, else the cluster's; unset means `default`, "" means none. */
function sshKey(s: AwsMachineScope): { keyName?: string } {
  const key = stringAt(s.object, 'spec', 'sshKeyName') ?? stringAt(s.awsCluster, 'spec', 'sshKeyName') ?? 'default';
  return key ? { keyName: key } : {};
}
