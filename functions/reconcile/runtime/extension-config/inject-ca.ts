/**
 * `runtime.cluster.x-k8s.io/inject-ca-from-secret: <namespace>/<name>` (Cluster API
 * core/reconcilers/extensionconfig): the Secret's `ca.crt` is copied into
 * `spec.clientConfig.caBundle` before discovery. A missing Secret or key is Discovered=False.
 */

import { ANNOTATION_INJECT_CA_FROM_SECRET } from '../../../../shared/contracts/object.js';
import { isRecord } from '../../../../shared/contracts/json.js';
import { updateFresh } from '../../engine/references/update-fresh.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { ExtensionConfigScope } from './reconciler.js';

export const CA_KEY = 'ca.crt';

export async function injectCaPhase(s: ExtensionConfigScope, retrySeconds: number, conditionType: string): Promise<PhaseResult> {
  const reference = s.object.metadata.annotations?.[ANNOTATION_INJECT_CA_FROM_SECRET];
  if (reference === undefined) return {};
  const [namespace, name, ...rest] = reference.split('/');
  const notDiscovered = (message: string): PhaseResult => {
    s.conditions.push({ type: conditionType, status: 'False', reason: 'NotDiscovered', message });
    return { requeueAfterSeconds: retrySeconds, stop: true };
  };
  if (!namespace || !name || rest.length > 0) return notDiscovered(`annotation ${ANNOTATION_INJECT_CA_FROM_SECRET} must be <namespace>/<name>, got ${JSON.stringify(reference)}`);
  const secret = await s.ctx.store.get({ group: '', kind: 'Secret', namespace, name });
  const ca = secret?.data?.[CA_KEY];
  if (ca === undefined || ca === '') return notDiscovered(`secret ${namespace}/${name} ${secret ? `has no ${CA_KEY}` : 'not found'} (annotation ${ANNOTATION_INJECT_CA_FROM_SECRET})`);
  const written = await updateFresh(s.ctx.store, s.object, (current) => {
    const clientConfig = isRecord(current.spec?.clientConfig) ? current.spec.clientConfig : {};
    if (clientConfig.caBundle === ca) return undefined;
    return { ...current, spec: { ...current.spec, clientConfig: { ...clientConfig, caBundle: ca } } };
  });
  if (written) s.object = written;
  return {};
}
