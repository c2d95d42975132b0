/**
 * How an AWSMachine's instance is bought and placed (CAPA's getInstanceMarketOptionsRequest and
 * its Placement): `spotMarketOptions` or `marketType: Spot` is a one-time Spot request, terminated
 * when interrupted, at most `spotMarketOptions.maxPrice`; `tenancy`, `placementGroupName` and
 * `placementGroupPartition` go into EC2's Placement. What CAPA refuses is refused before a launch,
 * with its message: a partition without a group, Spot with a capacity reservation, and Capacity
 * Blocks, which need the capacity reservations capless does not make yet.
 */

import { numberAt, recordAt, stringAt } from '../../../../../shared/contracts/json.js';
import { TerminalError } from '../../../../../shared/errors/index.js';
import type { InstancePlacement, RunInstanceRequest } from '../../../../../shared/ports/ec2.js';

export function marketOptions(spec: Record<string, unknown> | undefined): Pick<RunInstanceRequest, 'spot'> {
  const spotOptions = recordAt(spec, 'spotMarketOptions');
  const declared = stringAt(spec, 'marketType');
  if (declared === 'CapacityBlock') {
    if (spotOptions) throw new TerminalError('InvalidMarketOptions', "can't create spot capacity-blocks, remove spot market request");
    throw new TerminalError('UnsupportedMarketType', 'marketType CapacityBlock needs a capacity reservation, which capless does not support yet');
  }
  const marketType = declared || (spotOptions ? 'Spot' : 'OnDemand');
  if (marketType === 'OnDemand') return {};
  if (marketType !== 'Spot') throw new TerminalError('InvalidMarketOptions', `invalid MarketType "${marketType}"`);
  if (stringAt(spec, 'capacityReservationId')) {
    throw new TerminalError('InvalidMarketOptions', 'unable to generate marketOptions for spot instance, capacityReservationID is incompatible with marketType spot and spotMarketOptions');
  }
  const maxPrice = stringAt(spotOptions, 'maxPrice');
  return { spot: maxPrice ? { maxPrice } : {} };
}

const TENANCIES = ['default', 'dedicated', 'host'] as const;

export function placementOptions(spec: Record<string, unknown> | undefined): Pick<RunInstanceRequest, 'placement'> {
  const tenancy = TENANCIES.find((t) => t === stringAt(spec, 'tenancy'));
  const groupName = stringAt(spec, 'placementGroupName');
  const partitionNumber = numberAt(spec, 'placementGroupPartition');
  if (!groupName && partitionNumber) throw new TerminalError('InvalidPlacement', 'placementGroupPartition is set but placementGroupName is empty');
  const placement: InstancePlacement = {
    ...(tenancy ? { tenancy } : {}),
    ...(groupName ? { groupName } : {}),
    ...(groupName && partitionNumber ? { partitionNumber } : {}),
  };
  return Object.keys(placement).length > 0 ? { placement } : {};
}

/** CAPA's SetInterruptible: a Machine with spotMarketOptions may be taken away. */
export function isInterruptible(spec: Record<string, unknown> | undefined): boolean {
  return recordAt(spec, 'spotMarketOptions') !== undefined;
}
