import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';

const MAX_EVENT_AGE_MINUTES = 24 * 60;

export interface ResyncScheduleProps {
  readonly handler: IFunction;
  /** Whole minutes, at least one. */
  readonly period: Duration;
}

/**
 * The periodic resync: an EventBridge Scheduler schedule that invokes the resync function every
 * `period`. A missed run is not retried: the next one comes within a period and does the same.
 */
export class ResyncSchedule extends Construct {
  readonly schedule: Schedule;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ResyncScheduleProps) {
    super(scope, id);
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
      description: 'capless: lets EventBridge Scheduler invoke the resync function',
    });
    this.schedule = new Schedule(this, 'Schedule', {
      description: `capless: re-enqueue every object every ${props.period.toMinutes()} minutes to catch drift`,
      schedule: ScheduleExpression.rate(props.period),
      target: new LambdaInvoke(props.handler, {
        role: this.role,
        retryAttempts: 0,
        // A run older than a period is stale (the next one is due); Scheduler allows 1 min – 24 h.
        maxEventAge: Duration.minutes(Math.min(MAX_EVENT_AGE_MINUTES, Math.max(1, props.period.toMinutes()))),
      }),
    });
    const fn = props.handler.node.defaultChild;
    if (fn instanceof CfnFunction) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(fn).getLogicalId(fn)}.Arn>:*]`,
        reason: "IFunction.grantInvoke also covers the function's versions and aliases (`<arn>:*`); all of them are the resync function.",
      });
    }
  }
}
