/**
 * The EBS volumes an AWSMachine's instance is launched with (CAPA's getInstanceBlockDeviceMappings
 * and checkRootVolume): `spec.rootVolume` at the device the image names as its root (`/dev/sda1`
 * on CAPA's Ubuntu images, `/dev/xvda` on Amazon Linux: a fixed name would add a second disk
 * instead of resizing the root), no smaller than the image's snapshot; and every
 * `spec.nonRootVolumes[]` at the device it names. Type, IOPS, throughput and encryption (a KMS
 * key implies it) as given; each is deleted with the instance.
 */

import { booleanAt, isRecord, numberAt, recordAt, stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { BlockDeviceVolume, Ec2Instances, Image } from '../../../../../shared/ports/ec2.js';
import { imageById } from './image-lookup.js';

/** CAPA's Volume as the port's volume at `deviceName`. */
export function volumeOf(volume: unknown, deviceName: string): BlockDeviceVolume {
  const type = stringAt(volume, 'type');
  const iops = numberAt(volume, 'iops');
  const throughput = numberAt(volume, 'throughput');
  const encrypted = booleanAt(volume, 'encrypted');
  const kmsKeyId = stringAt(volume, 'encryptionKey');
  return {
    deviceName,
    sizeGiB: numberAt(volume, 'size') ?? 0,
    ...(type ? { type } : {}),
    ...(iops ? { iops } : {}),
    ...(throughput ? { throughput } : {}),
    ...(encrypted !== undefined ? { encrypted } : {}),
    ...(kmsKeyId ? { kmsKeyId } : {}),
  };
}

/** What the lookup already described of the image, else DescribeImages by its id. */
async function describedImage(ec2: Ec2Instances, known: Pick<Image, 'id'> | Image): Promise<Image | undefined> {
  return 'rootDeviceName' in known && known.rootDeviceName ? known : imageById(ec2, known.id);
}

async function rootVolume(ec2: Ec2Instances, known: Pick<Image, 'id'> | Image, root: Record<string, unknown>): Promise<BlockDeviceVolume> {
  const image = await describedImage(ec2, known);
  if (!image?.rootDeviceName) throw new CloudApiError('DescribeImages', 'InvalidAMIID.NotFound', `failed to get the root device of image ${known.id}`);
  const size = numberAt(root, 'size') ?? 0;
  const snapshot = image.rootSnapshotSizeGiB;
  if (snapshot !== undefined && size < snapshot) {
    throw new CloudApiError('RunInstances', 'InvalidBlockDeviceMapping', `root volume size (${size}) must be greater than or equal to snapshot size (${snapshot})`);
  }
  return volumeOf(root, image.rootDeviceName);
}

/** `image`: the AMI to launch, with what is already known of it (a default lookup described it; an `ami.id` is read once, only for a root volume). */
export async function launchVolumes(machineSpec: unknown, ec2: Ec2Instances, image: Pick<Image, 'id'> | Image): Promise<BlockDeviceVolume[]> {
  const root = recordAt(machineSpec, 'rootVolume');
  const others = valueAt(machineSpec, 'nonRootVolumes');
  const volumes: BlockDeviceVolume[] = root ? [await rootVolume(ec2, image, root)] : [];
  for (const volume of Array.isArray(others) ? others.filter(isRecord) : []) {
    const deviceName = stringAt(volume, 'deviceName');
    if (!deviceName) throw new CloudApiError('RunInstances', 'InvalidBlockDeviceMapping', 'non root volume should have device name specified');
    volumes.push(volumeOf(volume, deviceName));
  }
  return volumes;
}
