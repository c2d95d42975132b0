import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import {
  SECRET_PARTITION_PREFIX,
  TABLE_INDEXES,
  TABLE_KEYS,
} from '../../../shared/adapters/aws/dynamodb/table-design.js';
import { WORK_PARTITION_PREFIX } from '../../../shared/adapters/aws/work-leases/dynamo-work-leases.js';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const KEY_READ_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey'];
const KEY_WRITE_ACTIONS = ['kms:Encrypt', 'kms:GenerateDataKey'];

/** Partition keys of Secrets, as an IAM string pattern. */
const SECRET_PARTITIONS = `${SECRET_PARTITION_PREFIX}*`;

/**
 * Every key an operation touches is outside the Secret partitions. `ForAllValues` is true for an
 * empty key set, which is why no grant here ever includes Scan (it has no leading keys).
 */
const OBJECT_PARTITIONS_ONLY = { 'ForAllValues:StringNotLike': { 'dynamodb:LeadingKeys': [SECRET_PARTITIONS] } };
/** Every key an operation touches is inside the Secret partitions. */
const SECRET_PARTITIONS_ONLY = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [SECRET_PARTITIONS] } };

/** Every key is a work-queue bookkeeping item (lease, queued/dirty markers), never an object. */
const WORK_PARTITIONS_ONLY = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${WORK_PARTITION_PREFIX}*`] } };

/**
 * The state table: every object (desired state and status) in one single-table design
 * (shared/adapters/aws/dynamodb/table-design.ts), encrypted with a customer-managed key the
 * user owns, streamed (NEW_AND_OLD_IMAGES) to the router, retained on stack deletion.
 *
 * Secrets live in the same table under the SECRET_PARTITION_PREFIX partitions; IAM keeps them
 * apart: `grantReadObjects`/`grantWriteObjects` exclude those partitions with a
 * `dynamodb:LeadingKeys` condition, and only `grantReadSecrets`/`grantWriteSecrets` open them.
 */
export class ObjectTable extends Construct {
  /** The customer-managed key (rotated yearly) that encrypts the table, its stream and the queues. */
  readonly key: Key;
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'capless: encrypts the object table, its stream and the reconcile queues',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(TABLE_INDEXES)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }
  }

  get tableName(): string {
    return this.table.tableName;
  }

  /** Get, query (table and indexes) and condition-check objects; never Secrets. */
  grantReadObjects(grantee: IGrantable): Grant {
    this.key.grant(grantee, ...KEY_READ_ACTIONS);
    return this.grantItems(grantee, READ_ACTIONS, OBJECT_PARTITIONS_ONLY);
  }

  /** Put, update and delete objects (and the queue's bookkeeping items); never Secrets. */
  grantWriteObjects(grantee: IGrantable): Grant {
    this.key.grant(grantee, ...KEY_READ_ACTIONS, ...KEY_WRITE_ACTIONS);
    return this.grantItems(grantee, WRITE_ACTIONS, OBJECT_PARTITIONS_ONLY);
  }

  /**
   * Read and write the work queue's bookkeeping items (`work#…`: leases, queued markers) and
   * nothing else: for functions that enqueue but never write objects (the router, the resync).
   */
  grantWriteWorkItems(grantee: IGrantable): Grant {
    this.key.grant(grantee, ...KEY_READ_ACTIONS, ...KEY_WRITE_ACTIONS);
    return this.grantItems(grantee, [...READ_ACTIONS, ...WRITE_ACTIONS], WORK_PARTITIONS_ONLY);
  }

  /** Get and query Secrets. Only the API and the reconcilers that need Secrets get this. */
  grantReadSecrets(grantee: IGrantable): Grant {
    this.key.grant(grantee, ...KEY_READ_ACTIONS);
    return this.grantItems(grantee, READ_ACTIONS, SECRET_PARTITIONS_ONLY);
  }

  /**
   * Get one Secret by its key, nothing else: no Query (a function cannot discover Secrets), no
   * write. For reconcilers that reach workload clusters through `<cluster>-kubeconfig`. IAM has no
   * condition on the sort key (the Secret's name), so the name is the code's to choose (ADR 0065).
   */
  grantReadKubeconfigSecrets(grantee: IGrantable): Grant {
    this.key.grant(grantee, 'kms:Decrypt');
    return Grant.addToPrincipal({ grantee, actions: ['dynamodb:GetItem'], resourceArns: [this.table.tableArn], conditions: SECRET_PARTITIONS_ONLY });
  }

  /** Put, update and delete Secrets. Only the API and the reconcilers that need Secrets get this. */
  grantWriteSecrets(grantee: IGrantable): Grant {
    this.key.grant(grantee, ...KEY_READ_ACTIONS, ...KEY_WRITE_ACTIONS);
    return this.grantItems(grantee, WRITE_ACTIONS, SECRET_PARTITIONS_ONLY);
  }

  private grantItems(grantee: IGrantable, actions: string[], conditions: Record<string, Record<string, string[]>>): Grant {
    const indexArns = Object.values(TABLE_INDEXES).map((index) => `${this.table.tableArn}/index/${index.name}`);
    return Grant.addToPrincipal({ grantee, actions, resourceArns: [this.table.tableArn, ...indexArns], conditions });
  }
}
