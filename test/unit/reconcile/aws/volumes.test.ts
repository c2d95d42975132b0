/**
 * The EBS volumes an AWSMachine's instance is launched with (CAPA's getInstanceBlockDeviceMappings
 * and checkRootVolume): the root at the image's own root device, never smaller than its snapshot,
 * and the named others; then through the whole reconcile onto the instance.
 */

import { describe, expect, it, vi } from 'vitest';
import { launchVolumes } from '../../../../functions/reconcile/infrastructure/aws/machine/volumes.js';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { InMemoryEc2 } from '../../../../shared/adapters/memory/ec2/in-memory-ec2.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { CloudApiError } from '../../../../shared/errors/index.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import type { BlockDeviceVolume } from '../../../../shared/ports/ec2.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

function amazonLinux(ec2: InMemoryEc2, snapshot = 8): string {
  return ec2.registerImage({ name: 'al2023', ownerId: '1', creationDate: '2026-01-01', architecture: 'x86_64', rootDeviceName: '/dev/xvda', rootSnapshotSizeGiB: snapshot });
}

describe('launchVolumes', () => {
  it.each<[string, Record<string, unknown>, BlockDeviceVolume[]]>([
    ['no volumes asked for: none, and no image read', {}, []],
    ['the root at the image’s root device', { rootVolume: { size: 50, type: 'gp3', encrypted: true } }, [{ deviceName: '/dev/xvda', sizeGiB: 50, type: 'gp3', encrypted: true }]],
    ['a KMS key', { rootVolume: { size: 20, encryptionKey: 'arn:aws:kms:us-east-1:1:key/k' } }, [{ deviceName: '/dev/xvda', sizeGiB: 20, kmsKeyId: 'arn:aws:kms:us-east-1:1:key/k' }]],
    [
      'the root and a data volume with IOPS and throughput',
      { rootVolume: { size: 30 }, nonRootVolumes: [{ deviceName: '/dev/sdb', size: 100, type: 'gp3', iops: 4000, throughput: 250 }] },
      [
        { deviceName: '/dev/xvda', sizeGiB: 30 },
        { deviceName: '/dev/sdb', sizeGiB: 100, type: 'gp3', iops: 4000, throughput: 250 },
      ],
    ],
    ['data volumes alone', { nonRootVolumes: [{ deviceName: '/dev/sdc', size: 10 }] }, [{ deviceName: '/dev/sdc', sizeGiB: 10 }]],
  ])('%s', async (_case, spec, expected) => {
    const ec2 = new InMemoryEc2();
    const imageId = amazonLinux(ec2);
    const describeImages = vi.spyOn(ec2, 'describeImages');
    expect(await launchVolumes(spec, ec2, { id: imageId })).toEqual(expected);
    expect(describeImages).toHaveBeenCalledTimes('rootVolume' in spec ? 1 : 0);
  });

  it('an image the default lookup already described is not read again', async () => {
    const ec2 = new InMemoryEc2();
    const [image] = await ec2.describeImages({ owners: [], filters: [{ name: 'image-id', values: [amazonLinux(ec2)] }] });
    if (!image) throw new Error('image missing');
    const describeImages = vi.spyOn(ec2, 'describeImages');
    expect(await launchVolumes({ rootVolume: { size: 12 } }, ec2, image)).toEqual([{ deviceName: '/dev/xvda', sizeGiB: 12 }]);
    expect(describeImages).not.toHaveBeenCalled();
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    ['a root smaller than the image’s snapshot', { rootVolume: { size: 20 } }, 30, 'root volume size (20) must be greater than or equal to snapshot size (30)'],
    ['a data volume without a device', { nonRootVolumes: [{ size: 10 }] }, 8, 'non root volume should have device name specified'],
  ])('refuses %s', async (_case, spec, snapshot, message) => {
    const ec2 = new InMemoryEc2();
    const imageId = amazonLinux(ec2, snapshot);
    const refusal = await launchVolumes(spec, ec2, { id: imageId }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(CloudApiError);
    expect(refusal instanceof CloudApiError ? refusal.message : '').toContain(message);
  });
});

describe('an AWSMachine with volumes', () => {
  it('launches its instance with the root at the image’s device and its data volume', async () => {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    const ec2 = cloud.forRegion('us-east-1').ec2;
    const imageId = amazonLinux(ec2);
    const objects: KubeObject[] = [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)].map((o) =>
      o.kind === 'AWSMachine'
        ? { ...o, spec: { ...o.spec, ami: { id: imageId }, rootVolume: { size: 40, type: 'gp3', encrypted: true }, nonRootVolumes: [{ deviceName: '/dev/sdb', size: 100 }] } }
        : o,
    );
    for (const object of objects) await store.create(object);
    const stats = await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers: { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) } });
    expect(stats.errors).toEqual([]);
    const [instance] = [...ec2.instances.values()];
    expect(ec2.volumesOf(instance?.id ?? '')).toEqual([
      { deviceName: '/dev/xvda', sizeGiB: 40, type: 'gp3', encrypted: true },
      { deviceName: '/dev/sdb', sizeGiB: 100 },
    ]);
  });
});
