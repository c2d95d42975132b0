/** The AWS provider's ports in memory, one account per region (tests, benchmarks). */

import { CloudApiError } from '../../../errors/index.js';
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

  constructor(private readonly options: Omit<InMemoryEc2Options, 'region'> & { regions?: readonly string[] } = {}) {}

  /** A region AWS does not have: every call fails, as the SDK's do when the endpoint does not resolve. */
  forRegion(region: string): InMemoryAwsRegion {
    if (this.options.regions && !this.options.regions.includes(region)) return unreachableRegion(region);
    const cached = this.regions.get(region);
    if (cached) return cached;
    const ec2 = new InMemoryEc2({ ...this.options, region });
    const cloud = { ec2, secrets: new InMemoryUserDataSecrets(), loadBalancers: new InMemoryLoadBalancers(region, (id) => ec2.subnets.get(id)?.availabilityZone) };
    this.regions.set(region, cloud);
    return cloud;
  }
}

function failing<T extends object>(target: T, region: string): T {
  return new Proxy(target, {
    get(inner, property, receiver) {
      const value: unknown = Reflect.get(inner, property, receiver);
      if (typeof value !== 'function') return value;
      return () => Promise.reject(new CloudApiError(String(property), 'ENOTFOUND', `getaddrinfo ENOTFOUND ec2.${region}.amazonaws.com`));
    },
  });
}

function unreachableRegion(region: string): InMemoryAwsRegion {
  const ec2 = new InMemoryEc2({ region });
  return {
    ec2: failing(ec2, region),
    secrets: failing(new InMemoryUserDataSecrets(), region),
    loadBalancers: failing(new InMemoryLoadBalancers(region), region),
  };
}
