/**
 * The AWS provider's ports on the SDK, one set per region. Clients are built with only a region:
 * the SDK itself reads AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_EC2 / AWS_ENDPOINT_URL_SECRETS_MANAGER
 * and the credential chain (test/aws-wire/ec2-adapter.test.ts proves it against moto), so
 * `capless up` drives moto or LocalStack with nothing else configured.
 */

import { EC2Client } from '@aws-sdk/client-ec2';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AwsCloud, AwsCloudFactory } from '../../../ports/aws-cloud.js';
import type { LoadBalancers } from '../../../ports/load-balancers.js';
import { SdkEc2 } from '../ec2/sdk-ec2.js';
import { SdkUserDataSecrets } from '../secrets-manager/sdk-user-data-secrets.js';

export interface SdkAwsCloudOptions {
  /** The load balancers of a region; none by default (this repository has no ELBv2 client yet). */
  loadBalancers?: (region: string) => LoadBalancers | undefined;
}

export class SdkAwsCloudFactory implements AwsCloudFactory {
  private readonly regions = new Map<string, AwsCloud>();

  constructor(private readonly options: SdkAwsCloudOptions = {}) {}

  forRegion(region: string): AwsCloud {
    const cached = this.regions.get(region);
    if (cached) return cached;
    const loadBalancers = this.options.loadBalancers?.(region);
    const cloud: AwsCloud = {
      ec2: new SdkEc2(new EC2Client({ region })),
      secrets: new SdkUserDataSecrets(new SecretsManagerClient({ region })),
      ...(loadBalancers ? { loadBalancers } : {}),
    };
    this.regions.set(region, cloud);
    return cloud;
  }
}
