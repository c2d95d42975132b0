import type { KindInfo } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { apiVersionOf } from '../paths.js';

/** The stored object as the API shows it: labelled with the kind's storage version; cluster-scoped ones without a namespace. */
export function presentAs<T extends KubeObject>(object: T, info: KindInfo): T {
  const apiVersion = apiVersionOf(info, info.versions[0] ?? '');
  if (info.namespaced) return { ...object, apiVersion };
  const { namespace: _stored, ...metadata } = object.metadata;
  return { ...object, apiVersion, metadata };
}
