import { type Duration, Stack } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { GroupKind } from '../../../shared/contracts/object.js';
import { type ReconciledKind, reconcileKindKey } from '../reconciled-kinds.js';
import { encryptedQueue } from './encrypted-queue.js';
import { grantSend } from './queue-grants.js';

export interface ReconcileQueuesProps {
  readonly kinds: readonly ReconciledKind[];
  /** Encrypts every queue and dead-letter queue. */
  readonly key: IKey;
  /** Must be at least the reconciler's timeout (Lambda refuses the event source otherwise). */
  readonly visibilityTimeout: Duration;
  /** Receives of one request before SQS moves it to the kind's dead-letter queue. */
  readonly maxReceiveCount: number;
}

/** One kind's work queue and the dead-letter queue behind it. */
export interface KindQueue {
  readonly kind: ReconciledKind;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
}

/**
 * One standard SQS queue per reconciled kind, each with its own dead-letter queue, all encrypted
 * with the control plane's key and TLS-only. Construct IDs are the kind names: renaming a kind
 * replaces its queues (test/stacks/logical-ids.test.ts pins them).
 */
export class ReconcileQueues extends Construct {
  private readonly byKind = new Map<string, KindQueue>();
  private readonly key: IKey;

  constructor(scope: Construct, id: string, props: ReconcileQueuesProps) {
    super(scope, id);
    this.key = props.key;
    for (const kind of props.kinds) {
      const kindScope = new Construct(this, kind.kind);
      const deadLetterQueue = encryptedQueue(kindScope, 'DeadLetterQueue', { key: props.key });
      const queue = encryptedQueue(kindScope, 'Queue', {
        key: props.key,
        visibilityTimeout: props.visibilityTimeout,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
      });
      this.byKind.set(reconcileKindKey(kind), { kind, queue, deadLetterQueue });
    }
  }

  /** Every kind's queues, in the order the kinds were given. */
  all(): KindQueue[] {
    return [...this.byKind.values()];
  }

  /** The queues of one kind; throws for a kind that is not reconciled here. */
  of(kind: GroupKind): KindQueue {
    const found = this.byKind.get(reconcileKindKey(kind));
    if (!found) throw new Error(`no reconcile queue for ${reconcileKindKey(kind)}: add the kind to reconciledKinds`);
    return found;
  }

  /** `{"<group>/<Kind>": "<queue url>"}` as a JSON string: the QUEUE_URLS environment variable. */
  queueUrlsJson(kinds: readonly GroupKind[] = this.all().map((q) => q.kind)): string {
    const urls: Record<string, string> = {};
    for (const kind of kinds) urls[reconcileKindKey(kind)] = this.of(kind).queue.queueUrl;
    return Stack.of(this).toJsonString(urls);
  }

  /** `{"<group>/<Kind>": "<dead-letter queue url>"}` as JSON: the DEAD_LETTER_QUEUE_URLS variable. */
  deadLetterUrlsJson(kinds: readonly GroupKind[]): string {
    const urls: Record<string, string> = {};
    for (const kind of kinds) urls[reconcileKindKey(kind)] = this.of(kind).deadLetterQueue.queueUrl;
    return Stack.of(this).toJsonString(urls);
  }

  /**
   * Put requests that keep failing on the dead-letter queues of `kinds` directly (at once, with
   * the failure count), instead of waiting for SQS redrive.
   */
  grantDeadLetter(grantee: IGrantable, kinds: readonly GroupKind[]): void {
    grantSend(
      grantee,
      kinds.map((kind) => this.of(kind).deadLetterQueue),
      this.key,
    );
  }

  /** Send reconcile requests to the queues of `kinds` (default: every kind). */
  grantEnqueue(grantee: IGrantable, kinds: readonly GroupKind[] = this.all().map((q) => q.kind)): void {
    grantSend(
      grantee,
      kinds.map((kind) => this.of(kind).queue),
      this.key,
    );
  }
}

