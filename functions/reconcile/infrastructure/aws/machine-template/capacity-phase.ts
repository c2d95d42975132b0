/**
 * `status.capacity` from DescribeInstanceTypes, as CAPA's getInstanceTypeCapacity writes it: `cpu`
 * the default vCPUs, `memory` the size in MiB, each in Kubernetes' canonical quantity text.
 */

import { stringAt } from '../../../../../shared/contracts/json.js';
import { decimalQuantity, mebibytesQuantity } from '../../../../../shared/contracts/resource-quantity.js';
import { TerminalError } from '../../../../../shared/errors/index.js';
import type { InstanceTypeInfo } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { refusedForGood } from './cloud-refusals.js';
import type { AwsMachineTemplateScope } from './scope.js';

export function capacityOf(info: InstanceTypeInfo): Record<string, string> {
  return {
    ...(info.defaultVCpus !== undefined ? { cpu: decimalQuantity(info.defaultVCpus) } : {}),
    ...(info.memoryMiB !== undefined ? { memory: mebibytesQuantity(info.memoryMiB) } : {}),
  };
}

export async function capacityPhase(s: AwsMachineTemplateScope): Promise<PhaseResult> {
  const name = stringAt(s.machineSpec, 'instanceType') ?? '';
  const ec2 = s.cloud?.ec2;
  if (!ec2) return { stop: true };
  const [info] = await refusedForGood(() => ec2.describeInstanceTypes([name]));
  if (!info) throw new TerminalError('InvalidInstanceType', `no information found for instance type "${name}"`);
  s.instanceType = info;
  const capacity = capacityOf(info);
  if (Object.keys(capacity).length > 0) s.capacity = capacity;
  return {};
}
