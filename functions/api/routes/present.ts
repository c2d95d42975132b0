import type { KindInfo } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { apiVersionOf } from '../paths.js';

/** The stored object as the API shows it: labelled with the kind's storage version. */
export function presentAs<T extends KubeObject>(object: T, info: KindInfo): T {
  return { ...object, apiVersion: apiVersionOf(info, info.versions[0] ?? '') };
}
