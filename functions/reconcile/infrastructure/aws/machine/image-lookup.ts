/**
 * The AMI of an AWSMachine (CAPA pkg/cloud/services/ec2/ami.go): `spec.ami.id`, else the newest
 * available image of `imageLookupOrg` (default CAPA's account) named by `imageLookupFormat`
 * (default `capa-ami-{{.BaseOS}}-?{{.K8sVersion}}-*`) for the Machine's Kubernetes version.
 */

import { stringAt } from '../../../../../shared/contracts/json.js';
import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { Ec2Instances, Image } from '../../../../../shared/ports/ec2.js';
import type { AwsMachineScope } from './scope.js';

export const DEFAULT_IMAGE_OWNER = '819546954734';
export const DEFAULT_IMAGE_FORMAT = 'capa-ami-{{.BaseOS}}-?{{.K8sVersion}}-*';
export const DEFAULT_BASE_OS = 'ubuntu-24.04';

/** Graviton families (`t4g`, `m7g`, `c7gn`, …) are arm64; everything else x86_64. */
export function architectureOf(instanceType: string): 'arm64' | 'x86_64' {
  const family = instanceType.split('.')[0] ?? '';
  return /^[a-z]+\d+g/.test(family) ? 'arm64' : 'x86_64';
}

export function imageNamePattern(format: string, baseOS: string, kubernetesVersion: string): string {
  return format.replaceAll('{{.BaseOS}}', baseOS).replaceAll('{{.K8sVersion}}', kubernetesVersion.replace(/^v/, ''));
}

/** Where CAPA looks for a default image: an AWSMachine spec's `imageLookup*` fields, else the AWSCluster's. */
export interface ImageLookup {
  org?: string | undefined;
  baseOS?: string | undefined;
  format?: string | undefined;
}

export function imageLookupOf(machineSpec: unknown, awsCluster: StoredObject | undefined): ImageLookup {
  const field = (name: string) => stringAt(machineSpec, name) ?? stringAt(awsCluster, 'spec', name);
  return { org: field('imageLookupOrg'), baseOS: field('imageLookupBaseOS'), format: field('imageLookupFormat') };
}

/** The newest available image for this Kubernetes version and architecture (`x86_64`, `arm64`): CAPA's DefaultAMILookup. */
export async function newestDefaultImage(ec2: Ec2Instances, lookup: ImageLookup, kubernetesVersion: string, architecture: string): Promise<Image> {
  const pattern = imageNamePattern(lookup.format ?? DEFAULT_IMAGE_FORMAT, lookup.baseOS ?? DEFAULT_BASE_OS, kubernetesVersion);
  const images = await ec2.describeImages({
    owners: [lookup.org ?? DEFAULT_IMAGE_OWNER],
    filters: [
      { name: 'name', values: [pattern] },
      { name: 'architecture', values: [architecture] },
      { name: 'state', values: ['available'] },
      { name: 'virtualization-type', values: ['hvm'] },
    ],
  });
  const newest = images.sort((a, b) => b.creationDate.localeCompare(a.creationDate))[0];
  if (!newest) throw new CloudApiError('DescribeImages', 'ImageNotFound', `no available image named ${pattern}`);
  return newest;
}

/** The image of this id, as DescribeImages describes it (any owner); undefined when there is none. */
export async function imageById(ec2: Ec2Instances, id: string): Promise<Image | undefined> {
  const [image] = await ec2.describeImages({ owners: [], filters: [{ name: 'image-id', values: [id] }] });
  return image;
}

/** The AMI to launch: `spec.ami.id` (nothing more known of it), else the default image as the lookup described it. */
export async function findImage(s: AwsMachineScope, ec2: Ec2Instances): Promise<Pick<Image, 'id'> | Image> {
  const id = stringAt(s.object, 'spec', 'ami', 'id');
  if (id) return { id };
  const version = stringAt(s.machine, 'spec', 'version');
  if (!version) throw new CloudApiError('DescribeImages', 'NoKubernetesVersion', 'neither spec.ami.id nor the Machine spec.version is set');
  return newestDefaultImage(ec2, imageLookupOf(s.object.spec, s.awsCluster), version, architectureOf(stringAt(s.object, 'spec', 'instanceType') ?? ''));
}
