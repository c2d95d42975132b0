import { stringAt } from '../../../../../shared/contracts/json.js';
import type { StatusUpdate } from '../../../engine/skeleton/types.js';
import type { InMemoryMachineScope } from './scope.js';
import { timestamp } from '../../../../../shared/ports/clock.js';
import { machineVersionOf, simulatedAddresses, simulatedNode, simulatedReadyStatus } from './simulation.js';

/** v1beta2 InfraMachine status: provisioned flag, addresses, failure domain, and the simulated Node. */
export function computeInMemoryMachineStatus(s: InMemoryMachineScope): StatusUpdate {
  if (!s.provisioned) return { fields: { initialization: { provisioned: false } } };
  const { namespace, name } = s.object.metadata;
  const failureDomain = stringAt(s.machine, 'spec', 'failureDomain');
  return {
    fields: {
      initialization: { provisioned: true },
      addresses: s.poolAddresses
        ? [...s.poolAddresses.map((a) => ({ type: 'InternalIP', address: a.address })), { type: 'Hostname', address: name }]
        : simulatedAddresses(namespace, name),
      ...(failureDomain ? { failureDomain } : {}),
      simulatedNode: simulatedNode(s.machine?.metadata.name ?? name, machineVersionOf(s.machine), {
        status: simulatedReadyStatus(s.object),
        previous: s.object.status?.simulatedNode,
        now: timestamp(s.ctx.clock),
      }, s.certificateValidityDays),
    },
  };
}
