import type { KindInfo } from '../../shared/contracts/kinds.js';
import type { KubeObject, StoredObject } from '../../shared/contracts/object.js';

/** Where the object is going: the kind and version of the path, and its namespace. */
export interface AdmissionTarget {
  info: KindInfo;
  version: string;
  namespace: string;
  /** The name in the path (update, status), if any. */
  name?: string;
}

/** Parses, converts, defaults and validates what a client sends; throws ApiError subclasses. */
export interface Admission {
  create(body: unknown, target: AdmissionTarget): KubeObject;
  update(body: unknown, old: StoredObject, target: AdmissionTarget): KubeObject;
  updateStatus(body: unknown, old: StoredObject, target: AdmissionTarget): KubeObject;
}
