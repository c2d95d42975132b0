/**
 * Finding an AWSMachine's instance before anything is launched (CAPA's findInstance): by the id
 * recorded in spec, else by the tags every instance is launched with. An instance in any state
 * but shutting-down/terminated counts, so a stopped instance is never replaced by a second one.
 */

import { stringAt } from '../../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import { capaClusterTagKey, OWNED, TAG_MACHINE_NAME, TAG_NAME } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import type { Ec2Instances, Filter, Instance } from '../../../../../shared/ports/ec2.js';
import { parseAwsProviderID } from '../common/cluster-network.js';

export const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'] as const;

export function recordedInstanceId(awsMachine: StoredObject): string | undefined {
  return stringAt(awsMachine, 'spec', 'instanceID') ?? parseAwsProviderID(stringAt(awsMachine, 'spec', 'providerID'))?.instanceId;
}

export function instanceLookupFilters(cluster: string, awsMachine: StoredObject, machineName: string | undefined): Filter[] {
  return [
    { name: `tag:${TAG_NAME}`, values: [awsMachine.metadata.name] },
    { name: `tag:${capaClusterTagKey(cluster)}`, values: [OWNED] },
    ...(machineName ? [{ name: `tag:${TAG_MACHINE_NAME}`, values: [`${awsMachine.metadata.namespace}/${machineName}`] }] : []),
    { name: 'instance-state-name', values: [...LIVE_STATES] },
  ];
}

/** The oldest live instance carrying this AWSMachine's tags (there should be at most one). */
export async function findTaggedInstance(ec2: Ec2Instances, cluster: string, awsMachine: StoredObject, machineName: string | undefined): Promise<Instance | undefined> {
  const found = await ec2.describeInstances({ filters: instanceLookupFilters(cluster, awsMachine, machineName) });
  return found.sort((a, b) => a.id.localeCompare(b.id))[0];
}

/** The recorded instance (a NotFound is EC2's error: never a reason to launch again). */
export async function describeRecorded(ec2: Ec2Instances, instanceId: string): Promise<Instance | undefined> {
  const [instance] = await ec2.describeInstances({ ids: [instanceId] });
  return instance;
}
