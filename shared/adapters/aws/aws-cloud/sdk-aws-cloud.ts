/**
 * The AWS provider's ports on the SDK, one set per region. Clients are built with only a region:
 * the SDK itself reads AWS_ENDPOINT_URL and the per-service AWS_ENDPOINT_URL_EC2 /
 * AWS_ENDPOINT_URL_SECRETS_MANAGER / AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2, and the credential
 * chain (test/aws-wire/aws-cloud-moto.test.ts proves it against moto), so `capless up` drives moto
 * or LocalStack with nothing else configured.
 */

import { EC2Client } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AwsCloud, AwsCloudFactory } from '../../../ports/aws-cloud.js';
import type { LoadBalancers } from '../../../ports/load-balancers.js';
import { SdkEc2 } from '../ec2/sdk-ec2.js';
import { SdkLoadBalancers } from '../elbv2/sdk-load-balancers.js';
import { SdkUserDataSecrets } from '../secrets-manager/sdk-user-data-secrets.js';

export interface SdkAwsCloudOptions {
  /**
   * The load balancers of a region instead of ELBv2's: only for emulators that serve EC2 but not
   * ELBv2 (`capless up --simulated-load-balancers`). Default: the ELBv2 SDK adapter.
   */
  loadBalancers?: (region: string) => LoadBalancers;
}

export class SdkAwsCloudFactory implements AwsCloudFactory {
  private readonly regions = new Map<string, AwsCloud>();

  constructor(private readonly options: SdkAwsCloudOptions = {}) {}

  forRegion(region: string): AwsCloud {
    const cached = this.regions.get(region);
    if (cached) return cached;
    const cloud: AwsCloud = {
      ec2: new SdkEc2(new EC2Client({ region })),
      secrets: new SdkUserDataSecrets(new SecretsManagerClient({ region })),
      loadBalancers: this.options.loadBalancers?.(region) ?? new SdkLoadBalancers(new ElasticLoadBalancingV2Client({ region })),
    };
    this.regions.set(region, cloud);
    return cloud;
  }
}
