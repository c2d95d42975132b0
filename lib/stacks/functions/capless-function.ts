import { join } from 'node:path';
import { type Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENTRY_POINTS, type EntryPoint } from './entry-points.js';
import { lockFilePath, projectRoot } from './project-root.js';

/** Metric namespace of every capless function (Powertools Metrics). */
export const METRICS_NAMESPACE = 'capless';

/** Lets esbuild's ESM output load CommonJS dependencies that call `require`. */
const ESM_REQUIRE_SHIM = "import { createRequire as __caplessCreateRequire } from 'node:module'; const require = __caplessCreateRequire(import.meta.url);";

export interface CaplessFunctionProps {
  readonly entry: EntryPoint;
  /** Powertools service name (logs, metrics dimension, traces). */
  readonly serviceName: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly logRetention: RetentionDays;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default no extra variables */
  readonly environment?: Readonly<Record<string, string>>;
  /** Concurrency reserved for (and the limit of) this function. @default none: the account's unreserved pool */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * A capless Lambda function: Node.js 22 on arm64, a self-contained ESM bundle (the AWS SDK
 * included) built by the local esbuild (no Docker), JSON logs in its own log group, Powertools metrics and X-Ray tracing. Its role starts
 * with only "write to my log group"; everything else comes from the constructs' grant methods.
 */
export class CaplessFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: CaplessFunctionProps) {
    super(scope, id);
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `capless ${props.serviceName}`,
    });
    this.logGroup = new LogGroup(this, 'LogGroup', { retention: props.logRetention });
    this.logGroup.grantWrite(this.role);
    const root = projectRoot();
    this.function = new NodejsFunction(this, 'Function', {
      entry: join(root, ENTRY_POINTS[props.entry]),
      handler: 'handler',
      projectRoot: root,
      depsLockFilePath: lockFilePath(root),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      ...(props.reservedConcurrentExecutions === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      environment: {
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_SHIM,
        // The AWS SDK is bundled (ADR 0090): the deployed code is the code the tests ran, at the
        // versions package-lock.json pins, not whatever copy the Lambda runtime ships that day.
        externalModules: [],
      },
    });
    this.function.node.addDependency(this.logGroup);
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x on purpose: the handlers are built and tested against Node 22; moving to a newer runtime is a deliberate upgrade.',
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) and DynamoDB ListStreams (stream event source) support no resource-level permissions.',
    });
  }

  get functionName(): string {
    return this.function.functionName;
  }
}

