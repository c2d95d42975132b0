/**
 * AWS list prices the cost model uses: us-east-1, USD, read on 2026-11-29 from stored copies of
 * the public pricing pages (shared/reference/anchors.md §4). Free tiers are left out on purpose:
 * the figures are what the traffic costs, not what a small account happens to pay.
 */
export const AWS_PRICES = {
  lambdaPerRequest: { usd: 0.2 / 1e6, source: 'aws.amazon.com/lambda/pricing: $0.20 per 1M requests (x86 and arm64)' },
  lambdaArm64PerGbSecond: { usd: 0.0000133334, source: 'aws.amazon.com/lambda/pricing: arm64 $0.0000133334 per GB-s' },
  dynamoDbPerWriteUnit: {
    usd: 0.625 / 1e6,
    source: 'aws.amazon.com/dynamodb/pricing/on-demand: $0.625 per 1M write request units (since Nov 2024)',
  },
  dynamoDbPerReadUnit: {
    usd: 0.125 / 1e6,
    source: 'aws.amazon.com/dynamodb/pricing/on-demand: $0.125 per 1M read request units (since Nov 2024)',
  },
  dynamoDbPerGbMonth: { usd: 0.25, source: 'aws.amazon.com/dynamodb/pricing: $0.25 per GB-month after 25 GB free' },
  sqsPerRequest: { usd: 0.4 / 1e6, source: 'aws.amazon.com/sqs/pricing: standard queue $0.40 per 1M requests (64 KB chunks)' },
  apiGatewayPerRequest: { usd: 1.0 / 1e6, source: 'aws.amazon.com/api-gateway/pricing: HTTP API $1.00 per 1M (first 300M)' },
  schedulerPerInvocation: { usd: 1.0 / 1e6, source: 'EventBridge Scheduler: $1.00 per 1M invocations (after 14M free)' },
  dynamoDbStreamsLambdaReads: { usd: 0, source: 'DynamoDB pricing: GetRecords by a Lambda trigger is free' },
} as const;

export const PRICES_AS_OF = '2026-11-29 (us-east-1 list prices, shared/reference/anchors.md §4)';
