import { type Duration, Stack, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { GroupKind } from '../../../shared/contracts/object.js';
import { type ReconciledKind, reconcileKindKey } from '../reconciled-kinds.js';
import { encryptedQueue } from './encrypted-queue.js';
import { grantSend } from './queue-grants.js';

export interface WorkQueuesProps {
  readonly kinds: readonly ReconciledKind[];
  /** Encrypts every queue and dead-letter queue. */
  readonly key: IKey;
  /** Must be at least the dispatcher's timeout (Lambda refuses the event source otherwise). */
  readonly visibilityTimeout: Duration;
  /** Receives of one message before SQS moves it to the shared dead-letter queue. */
  readonly maxReceiveCount: number;
}

/** One kind's dead-letter queue: where its reconciler puts requests that failed for the last allowed time. */
export interface KindDeadLetterQueue {
  readonly kind: ReconciledKind;
  readonly deadLetterQueue: Queue;
}

/** Construct ID of the shared queue pair under `Queues`: not a kind name (kinds are the other children). */
export const SHARED_WORK_ID = 'SharedWork';

/**
 * The queues of ADR 0110's topology: one shared standard work queue (with its own dead-letter
 * queue for what the dispatcher can never read) that every kind's requests, delayed hops,
 * resync messages, cloud events and failed invocations go through, and one dead-letter queue per
 * kind for ADR 0002's explicit dead-lettering. All encrypted with the control plane's key and
 * TLS-only. The per-kind dead-letter queues keep the construct IDs ADR 0003's queues had
 * (`Queues/<Kind>/DeadLetterQueue`), so what they hold survives the change of topology.
 */
export class WorkQueues extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  private readonly byKind = new Map<string, KindDeadLetterQueue>();
  private readonly key: IKey;

  constructor(scope: Construct, id: string, props: WorkQueuesProps) {
    super(scope, id);
    this.key = props.key;
    const shared = new Construct(this, SHARED_WORK_ID);
    this.deadLetterQueue = encryptedQueue(shared, 'DeadLetterQueue', { key: props.key });
    this.queue = encryptedQueue(shared, 'Queue', {
      key: props.key,
      visibilityTimeout: props.visibilityTimeout,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });
    for (const kind of props.kinds) {
      const deadLetterQueue = encryptedQueue(new Construct(this, kind.kind), 'DeadLetterQueue', { key: props.key });
      Validations.of(deadLetterQueue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: "This queue is itself a dead-letter store: the kind's reconciler moves requests here after the last allowed failure (ADR 0002).",
      });
      this.byKind.set(reconcileKindKey(kind), { kind, deadLetterQueue });
    }
  }

  /** Every kind's dead-letter queue, in the order the kinds were given. */
  kindDeadLetterQueues(): KindDeadLetterQueue[] {
    return [...this.byKind.values()];
  }

  /** One kind's dead-letter queue; throws for a kind that is not reconciled here. */
  deadLetterOf(kind: GroupKind): Queue {
    const found = this.byKind.get(reconcileKindKey(kind));
    if (!found) throw new Error(`no dead-letter queue for ${reconcileKindKey(kind)}: add the kind to reconciledKinds`);
    return found.deadLetterQueue;
  }

  /** `{"<group>/<Kind>": "<dead-letter queue url>"}` as JSON: the DEAD_LETTER_QUEUE_URLS variable. */
  deadLetterUrlsJson(kinds: readonly GroupKind[] = this.kindDeadLetterQueues().map((q) => q.kind)): string {
    const urls: Record<string, string> = {};
    for (const kind of kinds) urls[reconcileKindKey(kind)] = this.deadLetterOf(kind).queueUrl;
    return Stack.of(this).toJsonString(urls);
  }

  /** Send requests (immediate, delayed, resync) to the shared work queue. */
  grantEnqueue(grantee: IGrantable): void {
    grantSend(grantee, [this.queue], this.key);
  }

  /** Put requests that keep failing on the dead-letter queues of `kinds` directly. */
  grantDeadLetter(grantee: IGrantable, kinds: readonly GroupKind[]): void {
    grantSend(
      grantee,
      kinds.map((kind) => this.deadLetterOf(kind)),
      this.key,
    );
  }
}
