/**
 * ExtensionConfig (`runtime.cluster.x-k8s.io/v1beta2`): discovers the extension's handlers and
 * writes them to `status.handlers` (core/reconcilers/extensionconfig in Cluster API). Discovery
 * runs on every change and again every resync period; a failed discovery keeps the handlers
 * found before and says why in `Discovered=False` (reason NotDiscovered), retried with a delay,
 * never as a crash loop.
 */

import type { ExtensionHandler } from '../../../../shared/contracts/hooks/index.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { EXTENSION_TRANSPORT_PORT, isExtensionTransport } from '../../../../shared/ports/runtime-extensions.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, Scope } from '../../engine/skeleton/types.js';
import { EXTENSION_CONFIG_KIND } from '../registrations.js';
import { discoverHandlers } from './discover.js';
import { injectCaPhase } from './inject-ca.js';
import { computeExtensionConfigStatus } from './status.js';

/** Re-discovery period (Cluster API re-discovers on its --sync-period resync, 10 minutes). */
export const REDISCOVERY_SECONDS = 600;
/** A failed discovery is tried again after this long. */
export const DISCOVERY_RETRY_SECONDS = 30;

export const CONDITION_DISCOVERED = 'Discovered';

export interface ExtensionConfigScope extends Scope {
  /** Handlers found by this reconcile's discovery; undefined when discovery failed. */
  discovered?: ExtensionHandler[];
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return Object.fromEntries(entries);
}

export async function discoverPhase(s: ExtensionConfigScope): Promise<PhaseResult> {
  const transport = s.ctx.providers?.[EXTENSION_TRANSPORT_PORT];
  if (!isExtensionTransport(transport)) {
    s.conditions.push({ type: CONDITION_DISCOVERED, status: 'False', reason: 'NotDiscovered', message: 'no extension transport is configured in this deployment' });
    return { requeueAfterSeconds: DISCOVERY_RETRY_SECONDS };
  }
  const result = await discoverHandlers(transport, s.object.spec?.clientConfig, stringRecord(s.object.spec?.settings));
  if (!result.ok) {
    s.conditions.push({ type: CONDITION_DISCOVERED, status: 'False', reason: 'NotDiscovered', message: result.message });
    return { requeueAfterSeconds: DISCOVERY_RETRY_SECONDS };
  }
  s.discovered = result.handlers;
  s.conditions.push({ type: CONDITION_DISCOVERED, status: 'True', reason: 'Discovered' });
  return { requeueAfterSeconds: REDISCOVERY_SECONDS };
}

export const extensionConfigReconciler: ReconcilerDefinition<ExtensionConfigScope> = {
  kind: EXTENSION_CONFIG_KIND,
  watches: [],
  createScope: (ctx: ReconcileContext, object: StoredObject) => ({ ctx, object, conditions: [] }),
  phases: [(s) => injectCaPhase(s, DISCOVERY_RETRY_SECONDS, CONDITION_DISCOVERED), discoverPhase],
  deletePhases: [],
  computeStatus: computeExtensionConfigStatus,
};
