/** The AWS provider's ports in memory, one account per region (tests, benchmarks). */

import type { AwsCloud, AwsCloudFactory } from '../../../ports/aws-cloud.js';
import { InMemoryEc2, type InMemoryEc2Options } from '../ec2/in-memory-ec2.js';
import { InMemoryLoadBalancers } from '../load-balancers/in-memory-load-balancers.js';
import { InMemoryUserDataSecrets } from '../secrets/in-memory-user-data-secrets.js';

export interface InMemoryAwsRegion extends AwsCloud {
  ec2: InMemoryEc2;
  secrets: InMemoryUserDataSecrets;
  loadBalancers: InMemoryLoadBalancers;
}

export class InMemoryAwsCloudFactory implements AwsCloudFactory {
  private readonly regions = new Map<string, InMemoryAwsRegion>();

  constructor(private readonly options: Omit<InMemoryEc2Options, 'region'> = {}) {}

  forRegion(region: string): InMemoryAwsRegion {
    const cached = this.regions.get(region);
    if (cached) return cached;
    const ec2 = new InMemoryEc2({ ...this.options, region });
    const cloud = { ec2, secrets: new InMemoryUserDataSecrets(), loadBalancers: new InMemoryLoadBalancers(region, (id) => ec2.subnets.get(id)?.availabilityZone) };
    this.regions.set(region, cloud);
    return cloud;
  }
}
