import type { MachineAddress } from '../../../../../shared/contracts/providers/fields.js';
import type { Instance } from '../../../../../shared/ports/ec2.js';
import type { StatusUpdate } from '../../../engine/skeleton/types.js';
import { isInterruptible } from './market-and-placement.js';
import type { AwsMachineScope } from './scope.js';

/** CAPA's addresses from the instance: InternalIP, InternalDNS, ExternalIP, ExternalDNS. */
export function addressesOf(instance: Instance): MachineAddress[] {
  return [
    ...(instance.privateIp ? [{ type: 'InternalIP', address: instance.privateIp }] : []),
    ...(instance.privateDnsName ? [{ type: 'InternalDNS', address: instance.privateDnsName }] : []),
    ...(instance.publicIp ? [{ type: 'ExternalIP', address: instance.publicIp }] : []),
    ...(instance.publicDnsName ? [{ type: 'ExternalDNS', address: instance.publicDnsName }] : []),
  ];
}

/** The v1beta1 InfraMachine contract: `ready`, `addresses`, `instanceState`, `failureReason/Message`. */
export function computeAwsMachineStatus(s: AwsMachineScope): StatusUpdate {
  const previous = s.object.status ?? {};
  const instance = s.instance;
  if (!instance) {
    // Nothing learned about the instance this run (waiting, or a cloud error): keep what was known.
    const { conditions: _c, observedGeneration: _g, ...kept } = previous;
    return { fields: { ...kept, ready: previous.ready === true && !s.failure } };
  }
  return {
    fields: {
      ready: instance.state === 'running',
      instanceState: instance.state,
      interruptible: isInterruptible(s.object.spec),
      addresses: addressesOf(instance),
      ...(s.failure ? { failureReason: s.failure.reason, failureMessage: s.failure.message } : {}),
    },
  };
}
