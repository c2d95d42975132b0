import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';
import { FunctionUrlAuthType, type FunctionUrl, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { WATCH_JWT_ENV } from '../../../functions/watch/watch-authentication.js';
import { WATCH_LOG_KEYS, WATCH_LOG_TABLE_ENV } from '../../../shared/adapters/aws/dynamodb/watch-log-table.js';
import { CaplessFunction } from '../functions/capless-function.js';
import { ENV } from '../functions/entry-points.js';
import type { ObjectTable } from '../state/object-table.js';

export interface WatchEndpointProps {
  readonly objects: ObjectTable;
  readonly logRetention: RetentionDays;
  /**
   * JWT mode: the issuer and audiences the HTTP API's JWT authorizer uses; the function checks
   * the caller's token itself (ADR 0125). Absent: IAM mode, the URL's SigV4 caller is the principal.
   * @default IAM mode
   */
  readonly jwt?: { readonly issuer: string; readonly audience: readonly string[] };
}

/** A function URL response streams for at most the function's timeout: Lambda's maximum. */
export const WATCH_FUNCTION_TIMEOUT = Duration.minutes(15);

/**
 * Kubernetes watches on AWS (ADR 0080): the watch log table (one item per change, per kind,
 * kept an hour by TTL, encrypted with the object table's key), written by the stream router, and
 * the watch function behind a Lambda function URL that streams its response
 * (`InvokeMode: RESPONSE_STREAM`) and admits only SigV4-signed callers IAM allows to invoke it
 * (`AuthType: AWS_IAM`); in JWT mode the function also checks the caller's bearer token (ADR 0125). The function may query the watch log and read objects; nothing else.
 */
export class WatchEndpoint extends Construct {
  readonly log: Table;
  readonly function: CaplessFunction;
  readonly url: FunctionUrl;
  private readonly key: Key;

  constructor(scope: Construct, id: string, props: WatchEndpointProps) {
    super(scope, id);
    this.key = props.objects.key;
    this.log = new Table(this, 'Log', {
      partitionKey: { name: WATCH_LOG_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: WATCH_LOG_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      timeToLiveAttribute: WATCH_LOG_KEYS.ttl,
      // Costs next to nothing on an hour of history, and keeps every table of the stack recoverable.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // An hour of history, rebuilt by use: nothing to keep when the stack goes.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.function = new CaplessFunction(this, 'Function', {
      entry: 'watch',
      serviceName: 'capless-watch',
      description: 'capless: Kubernetes watches streamed from the watch log',
      timeout: WATCH_FUNCTION_TIMEOUT,
      logRetention: props.logRetention,
      environment: {
        [ENV.tableName]: props.objects.tableName,
        [WATCH_LOG_TABLE_ENV]: this.log.tableName,
        [ENV.secretAccess]: 'true',
        ...(props.jwt ? { [WATCH_JWT_ENV.issuer]: props.jwt.issuer, [WATCH_JWT_ENV.audience]: JSON.stringify(props.jwt.audience) } : {}),
      },
    });
    props.objects.grantReadObjects(this.function.function);
    // Listing Secrets (their data never leaves: ADR 0043) for a watch's initial state.
    props.objects.grantReadSecrets(this.function.function);
    this.log.grant(this.function.function, 'dynamodb:Query');
    this.key.grant(this.function.function, 'kms:Decrypt', 'kms:DescribeKey');
    this.url = this.function.function.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM, invokeMode: InvokeMode.RESPONSE_STREAM });
  }

  /** Lets the stream router record changes (put only), and tells it where. */
  grantRecord(grantee: IGrantable & { addEnvironment(name: string, value: string): unknown }): void {
    this.log.grant(grantee, 'dynamodb:BatchWriteItem', 'dynamodb:PutItem');
    this.key.grant(grantee, 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:Decrypt', 'kms:DescribeKey');
    grantee.addEnvironment(WATCH_LOG_TABLE_ENV, this.log.tableName);
  }

  /** Lets a caller open watches (`lambda:InvokeFunctionUrl` on this function's URL). */
  grantWatch(grantee: IGrantable): void {
    this.url.grantInvokeUrl(grantee);
  }
}
