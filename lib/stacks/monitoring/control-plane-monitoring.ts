import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** One queue the control plane watches, with the name its alarms and graphs carry. */
export interface WatchedQueue {
  readonly label: string;
  readonly queue: IQueue;
  readonly deadLetterQueue: IQueue;
}

/** One reconciled kind: its dead-letter queue and its reconciler, invoked asynchronously (ADR 0110). */
export interface WatchedKind {
  readonly label: string;
  readonly deadLetterQueue: IQueue;
  readonly reconciler: IFunction;
}

export interface ControlPlaneMonitoringProps {
  /** Every function, by a short label (`api`, `router`, `reconcile-Cluster` …). */
  readonly functions: ReadonlyMap<string, IFunction>;
  /** The stream router: its iterator age says how far behind the table changes it is. */
  readonly router: IFunction;
  /** The shared work queue, with the dead-letter queue of what the dispatcher could never read. */
  readonly workQueue: WatchedQueue;
  readonly kinds: readonly WatchedKind[];
  /** The router's on-failure destination: anything in it is a stream batch given up on. */
  readonly streamFailures: IQueue;
  readonly httpApi: HttpApi;
  readonly oldestMessageAgeThreshold: Duration;
  readonly iteratorAgeThreshold: Duration;
  /** @default alarms notify no one; they show on the dashboard */
  readonly alarmTopic?: ITopic;
}

const PERIOD = Duration.minutes(5);

/**
 * Alarms that say "work is stuck or lost" and a dashboard. The shared work queue: anything in its
 * DLQ and an oldest-message age past the threshold; per kind: anything in its DLQ and an
 * asynchronous event waiting longer than the threshold to run (its reserved concurrency too small
 * or its function failing); for the router: stream iterator age and anything in its failure
 * queue; per function: any error (handlers report per-record failures, so an error is a crash or
 * a timeout).
 */
export class ControlPlaneMonitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  private readonly alarmTopic: ITopic | undefined;

  constructor(scope: Construct, id: string, props: ControlPlaneMonitoringProps) {
    super(scope, id);
    this.alarmTopic = props.alarmTopic;
    const work = props.workQueue;
    this.alarmWhenAbove(`${work.label}DeadLetters`, depth(work.deadLetterQueue), 0, `${work.label}: messages the dispatcher could never hand on`);
    this.alarmWhenAbove(
      `${work.label}OldestMessageAge`,
      work.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: Stats.MAXIMUM }),
      props.oldestMessageAgeThreshold.toSeconds(),
      `${work.label}: oldest request waits longer than ${props.oldestMessageAgeThreshold.toSeconds()} s`,
    );
    for (const watched of props.kinds) {
      this.alarmWhenAbove(`${watched.label}DeadLetters`, depth(watched.deadLetterQueue), 0, `${watched.label}: requests dead-lettered`);
      this.alarmWhenAbove(
        `${watched.label}OldestEventAge`,
        asyncEventAge(watched.reconciler),
        props.oldestMessageAgeThreshold.toMilliseconds(),
        `${watched.label}: an invocation waits longer than ${props.oldestMessageAgeThreshold.toSeconds()} s to run`,
      );
    }
    this.alarmWhenAbove('StreamFailures', depth(props.streamFailures), 0, 'router: stream batches given up on');
    this.alarmWhenAbove(
      'RouterIteratorAge',
      props.router.metric('IteratorAge', { period: PERIOD, statistic: Stats.MAXIMUM }),
      props.iteratorAgeThreshold.toMilliseconds(),
      `router: more than ${props.iteratorAgeThreshold.toSeconds()} s behind the table stream`,
    );
    for (const [label, fn] of props.functions) {
      this.alarmWhenAbove(`${label}Errors`, fn.metricErrors({ period: PERIOD, statistic: Stats.SUM }), 0, `${label}: function errors`);
    }
    this.dashboard = this.buildDashboard(props);
  }

  private alarmWhenAbove(id: string, metric: IMetric, threshold: number, description: string): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `capless ${description}`,
    });
    if (this.alarmTopic) alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    this.alarms.push(alarm);
  }

  private buildDashboard(props: ControlPlaneMonitoringProps): Dashboard {
    const dashboard = new Dashboard(this, 'Dashboard');
    const functions = [...props.functions.entries()];
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }));
    dashboard.addWidgets(
      graph('API requests and errors', [
        props.httpApi.metricCount({ period: PERIOD }),
        props.httpApi.metricClientError({ period: PERIOD }),
        props.httpApi.metricServerError({ period: PERIOD }),
      ]),
      graph('API latency p99', [props.httpApi.metricLatency({ period: PERIOD, statistic: Stats.p(99) })]),
      graph('Router iterator age (max)', [props.router.metric('IteratorAge', { period: PERIOD, statistic: Stats.MAXIMUM })]),
    );
    const work = props.workQueue;
    dashboard.addWidgets(
      graph('Work queue depth and oldest request age (s)', [
        work.queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, label: 'depth' }),
        work.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: Stats.MAXIMUM, label: 'oldest (s)' }),
      ]),
      graph('Oldest invocation age per kind (ms)', props.kinds.map((k) => asyncEventAge(k.reconciler, k.label))),
      graph('Dead-lettered requests', [depth(work.deadLetterQueue, work.label), ...props.kinds.map((k) => depth(k.deadLetterQueue, k.label))]),
    );
    dashboard.addWidgets(
      graph('Function errors', functions.map(([label, fn]) => fn.metricErrors({ period: PERIOD, label }))),
      graph('Function duration p99', functions.map(([label, fn]) => fn.metricDuration({ period: PERIOD, statistic: Stats.p(99), label }))),
      graph('Function throttles', functions.map(([label, fn]) => fn.metricThrottles({ period: PERIOD, label }))),
    );
    return dashboard;
  }
}

function depth(queue: IQueue, label?: string): IMetric {
  return queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM, label });
}

/** How long an asynchronous invocation waited before it ran (Lambda's AsyncEventAge, ms). */
function asyncEventAge(fn: IFunction, label?: string): IMetric {
  return fn.metric('AsyncEventAge', { period: PERIOD, statistic: Stats.MAXIMUM, label });
}

function graph(title: string, left: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left, width: 8 });
}
