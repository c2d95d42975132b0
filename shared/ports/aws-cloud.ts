import type { Ec2 } from './ec2.js';
import type { LoadBalancers } from './load-balancers.js';
import type { UserDataSecrets } from './user-data-secrets.js';

/** The EC2-side ports of one region, built on demand (an AWSCluster names its region). */
export interface AwsCloud {
  ec2: Ec2;
  secrets: UserDataSecrets;
  loadBalancers: LoadBalancers;
}

export interface AwsCloudFactory {
  forRegion(region: string): AwsCloud;
}

export function isAwsCloudFactory(value: unknown): value is AwsCloudFactory {
  return typeof value === 'object' && value !== null && 'forRegion' in value && typeof value.forRegion === 'function';
}

/** Key of the AwsCloudFactory on ReconcileContext.providers. */
export const AWS_CLOUD_PORT = 'awsCloud';
