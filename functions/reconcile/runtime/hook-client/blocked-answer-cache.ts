/**
 * Blocking answers remembered until their retry time (Cluster API util/cache with
 * `runtimeclient.WithCaching` in the lifecycle hook calls): a handler that said "retry after N
 * seconds" for this Cluster and these versions is not called again before then, whatever else
 * triggers a reconcile meanwhile. The key holds the registration, its ExtensionConfig's
 * resourceVersion (a changed config is asked again), the hook, the Cluster and the versions.
 * In memory, per process (per Lambda container), as in Cluster API's controller.
 */

import type { Clock } from '../../../../shared/ports/clock.js';
import type { Registration } from '../registrations.js';
import type { HandlerOutcome } from './outcome.js';

const MAX_ENTRIES = 10_000;

export class BlockedAnswerCache {
  private readonly entries = new Map<string, { outcome: HandlerOutcome & { kind: 'success' }; until: number }>();

  constructor(private readonly clock: Clock) {}

  static key(registration: Registration, hook: string, cluster: { namespace?: string; name: string }, body: Record<string, unknown>): string {
    const versions = ['fromKubernetesVersion', 'toKubernetesVersion', 'kubernetesVersion'].map((field) => (typeof body[field] === 'string' ? body[field] : ''));
    return JSON.stringify([registration.name, registration.extensionConfigVersion, hook, cluster.namespace ?? '', cluster.name, ...versions]);
  }

  /** The cached blocking answer with the seconds still to wait, or undefined. */
  get(key: string): HandlerOutcome | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const remainingMs = entry.until - this.clock.now().getTime();
    if (remainingMs <= 0) {
      this.entries.delete(key);
      return undefined;
    }
    return { ...entry.outcome, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) };
  }

  /** Remembers a blocking Success answer; anything else is never cached. */
  remember(key: string, outcome: HandlerOutcome): void {
    if (outcome.kind !== 'success' || outcome.retryAfterSeconds <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { outcome, until: this.clock.now().getTime() + outcome.retryAfterSeconds * 1000 });
  }
}
