/** The AWS cloud of a region, from the ports on the reconcile context. */

import { TerminalError } from '../../../../../shared/errors/index.js';
import { AWS_CLOUD_PORT, type AwsCloud, isAwsCloudFactory } from '../../../../../shared/ports/aws-cloud.js';
import type { ReconcileContext } from '../../../engine/skeleton/types.js';

export function awsCloudFor(ctx: ReconcileContext, region: string): AwsCloud {
  const factory = ctx.providers?.[AWS_CLOUD_PORT];
  if (!isAwsCloudFactory(factory)) throw new TerminalError('AwsCloudNotConfigured', 'no AWS cloud port is wired into this control plane');
  return factory.forRegion(region);
}
