import { Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CaplessControlPlane } from '../../lib/stacks/capless-control-plane.js';
import { describe, expect, it } from 'vitest';
import { TABLE_INDEXES, TABLE_KEYS } from '../../shared/adapters/aws/dynamodb/table-design.js';
import { RECONCILED_KINDS } from '../../lib/stacks/reconciled-kinds.js';
import { valueAt } from '../../shared/contracts/json.js';
import { synthStack, testApp } from './support/synth-stack.js';
import { functionPolicies, logicalIds, referencedId } from './support/template-reading.js';

// One synthesis per configuration, shared by the tests of this file.
const { template } = synthStack();
const jwt = synthStack({
  controlPlane: { authMode: 'jwt', jwtIssuer: 'https://issuer.example.com', jwtAudience: ['capless'], resyncPeriod: Duration.minutes(15) },
}).template;

const KINDS = RECONCILED_KINDS.length;
const FUNCTIONS = KINDS + 6; // reconcilers + api, router, resync, hosted extensions, dispatcher, watch
const HOOKS_ROUTE = 'POST /hooks/{proxy+}';
const managementRoutes = (t: Template) => Object.values(t.findResources('AWS::ApiGatewayV2::Route')).filter((r) => valueAt(r, 'Properties', 'RouteKey') !== HOOKS_ROUTE);

describe('the object table', () => {
  it('streams new and old images, has PITR and deletion protection, and is encrypted with the CMK', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('StateKey'), 'Arn'] } },
      GlobalSecondaryIndexes: Object.values(TABLE_INDEXES).map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
        }),
      ),
    });
  });

  it('is retained, and so is its key, when the stack goes', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain', Properties: { EnableKeyRotation: true } });
    template.resourceCountIs('AWS::KMS::Key', 1);
  });
});

describe('the work queues (ADR 0110)', () => {
  const queues = template.findResources('AWS::SQS::Queue');

  it('are one shared work queue with its dead-letter queue, a dead-letter queue per kind, and the stream failure queue', () => {
    expect(Object.keys(queues)).toHaveLength(2 + KINDS + 1);
    for (const kind of RECONCILED_KINDS) expect(logicalIds(template, 'AWS::SQS::Queue')).toContainEqual(expect.stringMatching(new RegExp(`^ControlPlaneQueues${kind.kind}DeadLetterQueue[0-9A-F]{8}$`)));
  });

  it('encrypts every queue with the CMK', () => {
    for (const queue of Object.values(queues)) {
      expect(referencedId(valueAt(queue, 'Properties', 'KmsMasterKeyId'))).toMatch(/StateKey/);
    }
  });

  it('redrives only the shared queue, to its own dead-letter queue after maxReceiveCount receives', () => {
    const redriven = Object.entries(queues).filter(([, queue]) => valueAt(queue, 'Properties', 'RedrivePolicy') !== undefined);
    expect(redriven.map(([id]) => id)).toEqual([expect.stringMatching(/^ControlPlaneQueuesSharedWorkQueue[0-9A-F]{8}$/)]);
    expect(valueAt(redriven[0]?.[1], 'Properties', 'RedrivePolicy', 'maxReceiveCount')).toBe(5);
    expect(referencedId(valueAt(redriven[0]?.[1], 'Properties', 'RedrivePolicy', 'deadLetterTargetArn'))).toMatch(/^ControlPlaneQueuesSharedWorkDeadLetterQueue/);
  });

  it('hides a received message six times as long as the dispatcher may run', () => {
    const shared = Object.entries(queues).find(([id]) => id.startsWith('ControlPlaneQueuesSharedWorkQueue'))?.[1];
    expect(valueAt(shared, 'Properties', 'VisibilityTimeout')).toBe(180);
    template.hasResourceProperties('AWS::Lambda::Function', { Timeout: 30, Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'capless-dispatch' }) } });
  });

  it('denies every request that is not over TLS', () => {
    template.resourceCountIs('AWS::SQS::QueuePolicy', 2 + KINDS + 1);
    template.allResourcesProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('the functions', () => {
  const functions = functionPolicies(template);

  it('are the API, the router, the resync, the dispatcher, the watch function and one reconciler per kind', () => {
    expect(functions.map((f) => f.serviceName).sort()).toEqual(
      ['capless-api', 'capless-router', 'capless-resync', 'capless-hooks', 'capless-dispatch', 'capless-watch', ...RECONCILED_KINDS.map((k) => `capless-reconcile-${k.kind.toLowerCase()}`)].sort(),
    );
  });

  it('run Node.js 22 on arm64 with active tracing, JSON logs and Powertools settings', () => {
    template.resourceCountIs('AWS::Lambda::Function', FUNCTIONS);
    template.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: Match.objectLike({ LogFormat: 'JSON', LogGroup: Match.anyValue() }),
      Environment: { Variables: Match.objectLike({ POWERTOOLS_METRICS_NAMESPACE: 'capless', POWERTOOLS_SERVICE_NAME: Match.anyValue() }) },
    });
  });

  it('tell each reconciler its kind, the table, the shared queue, its own dead-letter queue, the retry budget and the lease', () => {
    for (const kind of RECONCILED_KINDS) {
      const fn = functions.find((f) => f.serviceName === `capless-reconcile-${kind.kind.toLowerCase()}`);
      expect(fn?.environment.RECONCILE_KIND).toBe(`${kind.group}/${kind.kind}`);
      expect(fn?.environment.TABLE_NAME).toEqual({ Ref: expect.stringMatching(/StateTable/) });
      expect(fn?.environment.MAX_RECEIVE_COUNT).toBe('5');
      expect(fn?.environment.LEASE_SECONDS).toBe('120');
      expect(fn?.environment.WORK_QUEUE_URL).toEqual({ Ref: expect.stringMatching(/^ControlPlaneQueuesSharedWorkQueue/) });
      expect(fn?.environment.QUEUE_URLS).toBeUndefined();
      const deadLetters = JSON.stringify(fn?.environment.DEAD_LETTER_QUEUE_URLS);
      expect(deadLetters).toContain(`Queues${kind.kind}DeadLetterQueue`);
      expect(deadLetters.match(/DeadLetterQueue/g)).toHaveLength(1);
    }
  });

  it.each(['capless-router', 'capless-resync'])('give %s the URL of the shared work queue', (name) => {
    expect(functions.find((f) => f.serviceName === name)?.environment.WORK_QUEUE_URL).toEqual({ Ref: expect.stringMatching(/^ControlPlaneQueuesSharedWorkQueue/) });
  });

  it("give the dispatcher every kind's reconciler, every kind's dead-letter queue, the lease and the retry budget", () => {
    const dispatcher = functions.find((f) => f.serviceName === 'capless-dispatch');
    const reconcilers = JSON.stringify(dispatcher?.environment.RECONCILER_FUNCTIONS);
    const deadLetters = JSON.stringify(dispatcher?.environment.DEAD_LETTER_QUEUE_URLS);
    for (const kind of RECONCILED_KINDS) {
      expect(reconcilers).toContain(`"${kind.group}/${kind.kind}\\":\\"`);
      expect(reconcilers).toMatch(new RegExp(`ControlPlaneReconcile${kind.kind}Function[0-9A-F]{8}`));
      expect(deadLetters).toContain(`Queues${kind.kind}DeadLetterQueue`);
    }
    expect(dispatcher?.environment.LEASE_SECONDS).toBe('120');
    expect(dispatcher?.environment.MAX_RECEIVE_COUNT).toBe('5');
  });

  it.each(RECONCILED_KINDS.map((k) => [k.kind]))('reserve the concurrency of the %s reconciler (its per-kind limit)', (kind) => {
    const fn = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => new RegExp(`^ControlPlaneReconcile${kind}Function[0-9A-F]{8}$`).test(id));
    expect(valueAt(fn?.[1], 'Properties', 'ReservedConcurrentExecutions')).toBe(5);
  });
});

describe('the event sources', () => {
  it('feed the table stream to the router with bisect, partial failures, bounded retries, max age and an SQS failure destination', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('StateTable'), 'StreamArn'] },
      FunctionName: { Ref: Match.stringLikeRegexp('Router') },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 5,
      MaximumRecordAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('StreamFailures'), 'Arn'] } } },
    });
  });

  it('feed the shared work queue to the dispatcher with partial failures and a concurrency cap, and nothing else from a queue', () => {
    const sqsMappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter((m) => JSON.stringify(valueAt(m, 'Properties', 'EventSourceArn')).includes('Queue'));
    expect(sqsMappings).toHaveLength(1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('QueuesSharedWorkQueue'), 'Arn'] },
      FunctionName: { Ref: Match.stringLikeRegexp('WorkDispatcherFunction') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
  });

  it.each(RECONCILED_KINDS.map((k) => [k.kind]))(
    "invoke the %s reconciler asynchronously without Lambda retries, its failures going back to the shared queue",
    (kind) => {
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: Match.stringLikeRegexp(`Reconcile${kind}Function`) },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: 6 * 3600,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('QueuesSharedWorkQueue'), 'Arn'] } } },
      });
    },
  );
});

describe('the management API', () => {
  it('is an HTTP API whose every route goes through the IAM authorizer by default', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const routes = managementRoutes(template);
    expect(routes.map((r) => valueAt(r, 'Properties', 'RouteKey')).sort()).toEqual(['ANY /', 'ANY /{proxy+}']);
    for (const route of routes) expect(valueAt(route, 'Properties', 'AuthorizationType')).toBe('AWS_IAM');
  });

  it('uses the JWT authorizer, with issuer and audience, on every route when asked', () => {
    jwt.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      JwtConfiguration: { Issuer: 'https://issuer.example.com', Audience: ['capless'] },
    });
    const routes = managementRoutes(jwt);
    expect(routes).toHaveLength(2);
    for (const route of routes) {
      expect(valueAt(route, 'Properties', 'AuthorizationType')).toBe('JWT');
      expect(referencedId(valueAt(route, 'Properties', 'AuthorizerId'))).toMatch(/JwtAuthorizer/);
    }
  });

  it('has no route without authorization but the hosted extensions one (ADR 0100)', () => {
    for (const t of [template, jwt]) {
      for (const route of managementRoutes(t)) {
        expect(valueAt(route, 'Properties', 'AuthorizationType')).not.toBe('NONE');
        expect(valueAt(route, 'Properties', 'AuthorizationType')).toBeDefined();
      }
    }
  });

  it('integrates with the API function in payload format 2.0 and logs access', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [Match.stringLikeRegexp('ApiFunction'), 'Arn'] },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('AccessLogs'), 'Arn'] }, Format: Match.stringLikeRegexp('requestId') },
    });
  });
});

describe('the hosted Runtime Extensions (ADR 0100)', () => {
  it.each([
    ['IAM', template],
    ['JWT', jwt],
  ])('have their own POST route without an API Gateway authorizer (%s mode): the credential is the path secret', (_mode, t) => {
    const hooks = Object.values(t.findResources('AWS::ApiGatewayV2::Route')).filter((r) => valueAt(r, 'Properties', 'RouteKey') === HOOKS_ROUTE);
    expect(hooks).toHaveLength(1);
    expect(valueAt(hooks[0], 'Properties', 'AuthorizationType')).toBe('NONE');
    const target = String(JSON.stringify(valueAt(hooks[0], 'Properties', 'Target')));
    const integration = Object.entries(t.findResources('AWS::ApiGatewayV2::Integration')).find(([id]) => target.includes(id));
    expect(JSON.stringify(valueAt(integration?.[1], 'Properties', 'IntegrationUri'))).toMatch(/HooksFunction/);
    expect(valueAt(integration?.[1], 'Properties', 'PayloadFormatVersion')).toBe('2.0');
  });

  it('run as their own function that finds its path secret in Secrets Manager', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 48, ExcludePunctuation: true }),
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'capless-hooks', HOOKS_PATH_SECRET_ARN: { Ref: Match.stringLikeRegexp('HooksPathSecret') } }) },
    });
  });
});

describe('the periodic resync', () => {
  it.each([
    ['default (ADR 0110: hourly)', template, 'rate(1 hour)', 3600],
    ['resyncPeriod 15 minutes', jwt, 'rate(15 minutes)', 900],
  ])('invokes the resync function on a schedule (%s)', (_name, t, expression, maxAgeSeconds) => {
    t.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: expression,
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('ResyncFunction'), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: maxAgeSeconds },
      },
    });
  });
});

describe('monitoring', () => {
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
  const count = (metric: string, namespace: string) =>
    alarms.filter((a) => valueAt(a, 'Properties', 'MetricName') === metric && valueAt(a, 'Properties', 'Namespace') === namespace).length;

  it.each([
    ['dead-letter depth per kind, plus the shared and the stream failure queue', 'ApproximateNumberOfMessagesVisible', 'AWS/SQS', KINDS + 2],
    ['oldest message age of the shared work queue', 'ApproximateAgeOfOldestMessage', 'AWS/SQS', 1],
    ['oldest asynchronous invocation per reconciler', 'AsyncEventAge', 'AWS/Lambda', KINDS],
    ['router stream iterator age', 'IteratorAge', 'AWS/Lambda', 1],
    ['errors per function', 'Errors', 'AWS/Lambda', FUNCTIONS],
  ])('alarms on %s', (_what, metric, namespace, expected) => {
    expect(count(metric, namespace)).toBe(expected);
  });

  it('alarms on any dead letter at all (threshold 0, greater than)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('ClusterDeadLetterQueue'), 'QueueName'] } }],
    });
  });

  it('has a dashboard', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });
});

describe('outputs', () => {
  it('exports the API URL, the watch URL and the table name', () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual(['ApiUrl', expect.stringMatching(/^ControlPlaneHooksPathSecretArn/), 'TableName', 'WatchUrl']);
  });

  it('keeps one log group per function plus the access logs', () => {
    expect(logicalIds(template, 'AWS::Logs::LogGroup')).toHaveLength(FUNCTIONS + 1);
  });
});

describe('the watch endpoint (ADR 0080)', () => {
  it('is a function URL that streams its response and admits only IAM-signed callers', () => {
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'AWS_IAM',
      InvokeMode: 'RESPONSE_STREAM',
      TargetFunctionArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ControlPlaneWatchFunction'), 'Arn'] },
    });
    template.resourceCountIs('AWS::Lambda::Url', 1);
  });

  it("runs for Lambda's 15 minutes and knows both tables", () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: 900,
      Environment: { Variables: Match.objectLike({ TABLE_NAME: Match.anyValue(), WATCH_LOG_TABLE_NAME: Match.anyValue(), SECRET_ACCESS: 'true' }) },
    });
  });

  it('keeps its change history an hour by TTL, encrypted with the CMK, in a table of its own', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'kind', KeyType: 'HASH' },
        { AttributeName: 'rv', KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('StateKey'), 'Arn'] } },
    });
  });

  it('tells the router where to record changes', () => {
    const router = Object.values(template.findResources('AWS::Lambda::Function')).find((f) => JSON.stringify(valueAt(f, 'Properties', 'Environment')).includes('WORK_QUEUE_URL') && JSON.stringify(f).includes('WATCH_LOG_TABLE_NAME'));
    expect(router).toBeDefined();
  });
});

describe('CaplessControlPlane in a stack of your own', () => {
  const stack = new Stack(testApp(), 'Mine');
  const kinds = [
    { group: 'cluster.x-k8s.io', kind: 'Cluster', needsSecrets: true },
    { group: 'infrastructure.example.com', kind: 'AcmeMachine', needsSecrets: false },
  ];
  const controlPlane = new CaplessControlPlane(stack, 'Capless', { reconciledKinds: kinds, reconcilerMaxConcurrency: 20 });
  const mine = Template.fromStack(stack);

  it('builds one dead-letter queue and one reconciler per given kind, and invokes exactly those', () => {
    mine.resourceCountIs('AWS::Lambda::Function', kinds.length + 6);
    mine.resourceCountIs('AWS::SQS::Queue', kinds.length + 3);
    mine.resourceCountIs('AWS::Lambda::EventInvokeConfig', kinds.length);
    expect([...controlPlane.reconcilers.keys()]).toEqual(['cluster.x-k8s.io/Cluster', 'infrastructure.example.com/AcmeMachine']);
    mine.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ RECONCILE_KIND: 'infrastructure.example.com/AcmeMachine' }) },
    });
  });

  it('lets the dispatcher invoke every given kind\'s reconciler, and name it in RECONCILER_FUNCTIONS', () => {
    const variables = JSON.stringify(valueAt(Object.values(mine.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { POWERTOOLS_SERVICE_NAME: 'capless-dispatch' } } } }))[0], 'Properties', 'Environment', 'Variables', 'RECONCILER_FUNCTIONS'));
    expect(variables).toContain('infrastructure.example.com/AcmeMachine');
    expect(variables).toContain('cluster.x-k8s.io/Cluster');
    // Only the dispatcher's role has lambda:InvokeFunction (control-plane-iam.test.ts).
    const invoked = Object.values(mine.findResources('AWS::IAM::Policy')).flatMap((p) => {
      const statements = valueAt(p, 'Properties', 'PolicyDocument', 'Statement');
      return Array.isArray(statements) ? statements.filter((st) => valueAt(st, 'Action') === 'lambda:InvokeFunction') : [];
    });
    expect(JSON.stringify(invoked)).toMatch(/CaplessReconcileAcmeMachineFunction/);
    expect(JSON.stringify(invoked)).toMatch(/CaplessReconcileClusterFunction/);
  });

  it('reserves the given concurrency for every reconciler', () => {
    const reconcilers = Object.values(mine.findResources('AWS::Lambda::Function')).filter((f) => valueAt(f, 'Properties', 'Environment', 'Variables', 'RECONCILE_KIND') !== undefined);
    expect(reconcilers.map((f) => valueAt(f, 'Properties', 'ReservedConcurrentExecutions'))).toEqual([20, 20]);
  });
});
