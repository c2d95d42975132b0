/**
 * Reads the deployed stack back from moto: each function's configuration as CloudFormation
 * resolved it (GetFunction), its code (the S3 object the template names, checked against the
 * function's CodeSha256 and unpacked), and the event source mappings moto holds
 * (ListEventSourceMappings), with queue URLs looked up by ARN.
 */

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { resolvePseudo } from './cloud-assembly.js';
import type { FunctionSpec } from './deployed-function.js';
import type { DeployedStack } from './deploy-to-moto.js';
import { MOTO_REGION, type MotoApi } from './moto-api.js';
import type { SqsMapping } from './sqs-poller.js';
import type { StreamMapping } from './stream-poller.js';
import { functionCodeLocation } from './template-reader.js';

const functionSchema = z.looseObject({
  Configuration: z.looseObject({
    FunctionName: z.string(),
    FunctionArn: z.string(),
    Handler: z.string(),
    Timeout: z.number(),
    MemorySize: z.number(),
    Role: z.string(),
    CodeSha256: z.string(),
    Environment: z.looseObject({ Variables: z.record(z.string(), z.string()).default({}) }).optional(),
  }),
});

const mappingsSchema = z.looseObject({
  EventSourceMappings: z.array(
    z.looseObject({
      UUID: z.string(),
      EventSourceArn: z.string(),
      FunctionArn: z.string(),
      BatchSize: z.number(),
      State: z.string().optional(),
      StartingPosition: z.string().optional(),
      BisectBatchOnFunctionError: z.boolean().optional(),
      FunctionResponseTypes: z.array(z.string()).optional(),
      MaximumRetryAttempts: z.number().optional(),
      MaximumRecordAgeInSeconds: z.number().optional(),
      DestinationConfig: z.looseObject({ OnFailure: z.looseObject({ Destination: z.string().optional() }).optional() }).optional(),
    }),
  ),
});

export type ReadMapping = ({ source: 'sqs' } & SqsMapping) | ({ source: 'stream' } & StreamMapping);

export interface ReadStack {
  functions: FunctionSpec[];
  /** Mappings by function ARN. */
  mappings: { functionArn: string; mapping: ReadMapping }[];
}

export async function readDeployedStack(moto: MotoApi, sqs: SQSClient, stack: DeployedStack, codeRoot: string): Promise<ReadStack> {
  const functions: FunctionSpec[] = [];
  // Functions built from one asset (every reconciler) share its unpacked code: read-only, as in Lambda.
  const unpacked = new Map<string, string>();
  for (const resource of stack.resources.values()) {
    if (resource.type !== 'AWS::Lambda::Function') continue;
    const answer = functionSchema.parse(await moto.restJson('lambda', `/2015-03-31/functions/${encodeURIComponent(resource.physicalId)}`));
    const config = answer.Configuration;
    const location = functionCodeLocation(stack.synthesized, resource.logicalId);
    const codeKey = `${location.bucket}/${location.key}#${config.CodeSha256}`;
    let codeDir = unpacked.get(codeKey);
    if (!codeDir) {
      codeDir = join(codeRoot, resource.logicalId);
      await fetchCode(moto, stack, resource.logicalId, config.CodeSha256, codeDir);
      unpacked.set(codeKey, codeDir);
    }
    functions.push({
      logicalId: resource.logicalId,
      name: config.FunctionName,
      arn: config.FunctionArn,
      handler: config.Handler,
      timeoutSeconds: config.Timeout,
      memoryMb: config.MemorySize,
      environment: config.Environment?.Variables ?? {},
      codeDir,
      role: config.Role,
    });
  }
  const listed = mappingsSchema.parse(await moto.restJson('lambda', '/2015-03-31/event-source-mappings/'));
  const mappings: ReadStack['mappings'] = [];
  for (const m of listed.EventSourceMappings) {
    if (m.State !== undefined && m.State !== 'Enabled') continue;
    mappings.push({ functionArn: m.FunctionArn, mapping: await readMapping(sqs, m) });
  }
  return { functions, mappings };
}

type ListedMapping = z.infer<typeof mappingsSchema>['EventSourceMappings'][number];

async function readMapping(sqs: SQSClient, m: ListedMapping): Promise<ReadMapping> {
  const reportBatchItemFailures = (m.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures');
  if (m.EventSourceArn.startsWith('arn:aws:sqs:')) {
    const queueUrl = await queueUrlOf(sqs, m.EventSourceArn);
    return { source: 'sqs', uuid: m.UUID, queueArn: m.EventSourceArn, queueUrl, batchSize: m.BatchSize, reportBatchItemFailures };
  }
  if (!m.EventSourceArn.includes(':dynamodb:') || !m.EventSourceArn.includes('/stream/')) {
    throw new Error(`event source mapping ${m.UUID}: ${m.EventSourceArn} is neither an SQS queue nor a DynamoDB stream`);
  }
  const onFailure = m.DestinationConfig?.OnFailure?.Destination;
  return {
    source: 'stream',
    uuid: m.UUID,
    streamArn: m.EventSourceArn,
    functionArn: m.FunctionArn,
    batchSize: m.BatchSize,
    startingPosition: m.StartingPosition === 'LATEST' ? 'LATEST' : 'TRIM_HORIZON',
    bisectOnError: m.BisectBatchOnFunctionError ?? false,
    reportBatchItemFailures,
    maxRetries: m.MaximumRetryAttempts ?? -1,
    maxRecordAgeSeconds: m.MaximumRecordAgeInSeconds ?? -1,
    ...(onFailure?.startsWith('arn:aws:sqs:') ? { onFailureQueueUrl: await queueUrlOf(sqs, onFailure) } : {}),
  };
}

export async function queueUrlOf(sqs: SQSClient, queueArn: string): Promise<string> {
  const [, , , , accountId, name] = queueArn.split(':');
  const found = await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: accountId }));
  if (!found.QueueUrl) throw new Error(`no queue for ${queueArn}`);
  return found.QueueUrl;
}

/** The function's code as moto holds it, unpacked; refuses code whose digest is not the function's CodeSha256. */
async function fetchCode(moto: MotoApi, stack: DeployedStack, logicalId: string, codeSha256: string, codeDir: string): Promise<void> {
  const location = functionCodeLocation(stack.synthesized, logicalId);
  const bucket = resolvePseudo(location.bucket, stack.accountId, MOTO_REGION);
  const zip = Buffer.from(await (await moto.call('s3', 'GET', `/${bucket}/${location.key}`)).arrayBuffer());
  const digest = createHash('sha256').update(zip).digest('base64');
  if (digest !== codeSha256) throw new Error(`code of ${logicalId} in s3://${bucket}/${location.key} is not what moto deployed (sha256 ${digest} ≠ ${codeSha256})`);
  mkdirSync(codeDir, { recursive: true });
  const zipPath = `${codeDir}.zip`;
  writeFileSync(zipPath, zip);
  execFileSync('unzip', ['-q', '-o', zipPath, '-d', codeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
}
