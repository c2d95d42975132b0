import { EventField, Rule, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ProviderEventRule } from '../../../shared/contracts/provider-contract.js';

export interface ProviderEventRulesProps {
  /** The shared work queue the events go to. */
  readonly queue: IQueue;
  /** `<group>/<Kind>` whose reconciler maps the events: the dispatcher routes by it. */
  readonly kind: string;
  /** The key the queue is encrypted with (EventBridge must be able to use it). */
  readonly key: IKey;
  readonly rules: readonly ProviderEventRule[];
}

/**
 * The EventBridge rules a provider declared for one kind, each delivering to the shared work
 * queue as a cloud-event message `{v: 1, kind, cloudEvent: {source, detailType, region, resources,
 * detail}}`; the dispatcher hands it to that kind's reconciler, which maps it to the objects to
 * reconcile (shared/contracts/cloud-event-message.ts).
 */
export class ProviderEventRules extends Construct {
  readonly rules: Rule[] = [];

  constructor(scope: Construct, id: string, props: ProviderEventRulesProps) {
    super(scope, id);
    for (const declared of props.rules) {
      const rule = new Rule(this, declared.id, { description: declared.description, eventPattern: structuredClone(declared.eventPattern) });
      rule.addTarget(
        new SqsQueue(props.queue, {
          message: RuleTargetInput.fromObject({
            v: 1,
            kind: props.kind,
            cloudEvent: {
              source: EventField.source,
              detailType: EventField.detailType,
              region: EventField.region,
              resources: EventField.fromPath('$.resources'),
              detail: EventField.fromPath('$.detail'),
            },
          }),
        }),
      );
      this.rules.push(rule);
    }
    if (props.rules.length > 0) props.key.grant(new ServicePrincipal('events.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
  }
}
