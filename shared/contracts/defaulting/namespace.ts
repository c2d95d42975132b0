/** Namespace defaults: `status.phase` Active (the API server's create strategy; capless has no Terminating). */

import type { Namespace } from '../schemas/corev1/namespace.js';

export function defaultNamespace(namespace: Namespace): Namespace {
  return { ...namespace, status: { ...namespace.status, phase: 'Active' } };
}
