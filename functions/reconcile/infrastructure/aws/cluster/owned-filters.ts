import { capaClusterTagKey, OWNED, TAG_NAME } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import type { Filter } from '../../../../../shared/ports/ec2.js';

/** Resources capless created for the cluster carry its ownership tag; `name` narrows to one. */
export function ownedFilters(cluster: string, name?: string): Filter[] {
  return [{ name: `tag:${capaClusterTagKey(cluster)}`, values: [OWNED] }, ...(name ? [{ name: `tag:${TAG_NAME}`, values: [name] }] : [])];
}
