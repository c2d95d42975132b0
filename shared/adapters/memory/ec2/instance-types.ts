/**
 * The instance types the in-memory EC2 knows, with the figures DescribeInstanceTypes gives for
 * them (read from moto's catalogue, which copies EC2's): vCPUs, memory in MiB, architectures.
 */

import type { InstanceTypeInfo } from '../../../ports/ec2.js';

const CATALOGUE: readonly (readonly [string, number, number, string])[] = [
  ['c5.large', 2, 4096, 'x86_64'],
  ['c5.xlarge', 4, 8192, 'x86_64'],
  ['c6g.large', 2, 4096, 'arm64'],
  ['g4dn.xlarge', 4, 16384, 'x86_64'],
  ['m5.2xlarge', 8, 32768, 'x86_64'],
  ['m5.large', 2, 8192, 'x86_64'],
  ['m5.xlarge', 4, 16384, 'x86_64'],
  ['m6g.large', 2, 8192, 'arm64'],
  ['m6g.xlarge', 4, 16384, 'arm64'],
  ['m6i.large', 2, 8192, 'x86_64'],
  ['m6i.xlarge', 4, 16384, 'x86_64'],
  ['m7g.large', 2, 8192, 'arm64'],
  ['r5.large', 2, 16384, 'x86_64'],
  ['r6g.large', 2, 16384, 'arm64'],
  ['t3.2xlarge', 8, 32768, 'x86_64'],
  ['t3.large', 2, 8192, 'x86_64'],
  ['t3.medium', 2, 4096, 'x86_64'],
  ['t3.micro', 2, 1024, 'x86_64'],
  ['t3.nano', 2, 512, 'x86_64'],
  ['t3.small', 2, 2048, 'x86_64'],
  ['t3.xlarge', 4, 16384, 'x86_64'],
  ['t3a.large', 2, 8192, 'x86_64'],
  ['t4g.large', 2, 8192, 'arm64'],
  ['t4g.medium', 2, 4096, 'arm64'],
  ['x2iedn.32xlarge', 128, 4194304, 'x86_64'],
];

export const KNOWN_INSTANCE_TYPES: ReadonlyMap<string, InstanceTypeInfo> = new Map(
  CATALOGUE.map(([instanceType, defaultVCpus, memoryMiB, architectures]) => [
    instanceType,
    { instanceType, defaultVCpus, memoryMiB, architectures: architectures.split(',') },
  ]),
);
