/**
 * The deploy step: the stack `npm run synth` wrote to cdk.out, created in moto's CloudFormation.
 * Assets go where the template expects them (the bootstrap bucket in moto's S3, the bootstrap
 * version in SSM, as `cdk bootstrap` would have left them); resource types moto has no model for
 * are removed together with what refers to them, and printed; then CreateStack, and a check that
 * moto created every resource it was given (it skips unknown types silently).
 */

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readSynthesizedStack, resolvePseudo, type SynthesizedStack } from './cloud-assembly.js';
import { type DeployPlan, describeRemovals, planForMoto, type Template } from './deploy-plan.js';
import { MOTO_REGION, type MotoApi, xmlField, xmlMembers } from './moto-api.js';
import { functionCodeLocation } from './template-reader.js';

const run = promisify(execFile);
const CFN_VERSION = '2010-05-15';
/** Where the CDK's default synthesizer reads the bootstrap version (the template's BootstrapVersion parameter). */
const BOOTSTRAP_VERSION_PARAMETER = '/cdk-bootstrap/hnb659fds/version';
const BOOTSTRAP_VERSION = '28';
const STACK_TIMEOUT_MS = 60_000;

export interface DeployedResource {
  logicalId: string;
  physicalId: string;
  type: string;
}

export interface DeployedStack {
  stackName: string;
  accountId: string;
  /** The template as synthesized (the runtime reads API routes and schedules from it). */
  synthesized: Template;
  plan: DeployPlan;
  resources: Map<string, DeployedResource>;
  outputs: Record<string, string>;
}

export interface DeployOptions {
  /** cdk.out of `npm run synth`. */
  cdkOut: string;
  /** Changes the synthesized template before planning (the breakage tests use it). */
  edit?: (template: Template) => Template;
  /** Where the removal list goes; default console.info. */
  log?: (text: string) => void;
  /** The interpreter moto's server runs on, asked which resource types moto can create. */
  python?: string;
}

const supportedTypes = new Map<string, Promise<Set<string>>>();

/** The CloudFormation resource types the installed moto has a model for (asked once per interpreter). */
export function motoSupportedTypes(python = 'python3'): Promise<Set<string>> {
  let types = supportedTypes.get(python);
  if (!types) {
    types = askMotoForTypes(python);
    supportedTypes.set(python, types);
  }
  return types;
}

async function askMotoForTypes(python: string): Promise<Set<string>> {
  const script = 'import json\nfrom moto.cloudformation.parsing import get_model_map\nprint(json.dumps(sorted(get_model_map())))';
  const { stdout } = await run(python, ['-c', script], { encoding: 'utf8' });
  const parsed: unknown = JSON.parse(stdout);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`moto listed no CloudFormation resource types: ${stdout.slice(0, 200)}`);
  return new Set(parsed.map(String));
}

export async function deployToMoto(moto: MotoApi, options: DeployOptions): Promise<DeployedStack> {
  const synthesized = readSynthesizedStack(options.cdkOut);
  const template = options.edit ? options.edit(structuredClone(synthesized.template)) : synthesized.template;
  const accountId = await moto.accountId();
  const [types] = await Promise.all([motoSupportedTypes(options.python), publishAssets(moto, synthesized, accountId)]);
  const plan = planForMoto(template, types);
  (options.log ?? console.info)(describeRemovals(plan));
  await moto.json('ssm', 'AmazonSSM.PutParameter', { Name: BOOTSTRAP_VERSION_PARAMETER, Value: BOOTSTRAP_VERSION, Type: 'String', Overwrite: true });
  await checkFunctionCode(moto, plan.template, accountId);
  await moto
    .query('cloudformation', 'CreateStack', CFN_VERSION, {
      StackName: synthesized.stackName,
      TemplateBody: JSON.stringify(plan.template),
      'Capabilities.member.1': 'CAPABILITY_IAM',
      'Capabilities.member.2': 'CAPABILITY_NAMED_IAM',
    })
    .catch((error: unknown) => {
      // moto answers a resource it cannot create with the bare error, not a CREATE_FAILED event.
      throw new Error(`moto refused to create ${synthesized.stackName}: ${error instanceof Error ? error.message : String(error)}`);
    });
  const outputs = await waitForCreate(moto, synthesized.stackName);
  const resources = await stackResources(moto, synthesized.stackName);
  const missing = Object.entries(plan.template.Resources).filter(([logicalId]) => !resources.get(logicalId)?.physicalId);
  if (missing.length > 0) {
    throw new Error(`moto reported ${synthesized.stackName} created but did not create: ${missing.map(([id, r]) => `${id} (${r.Type})`).join(', ')}`);
  }
  return { stackName: synthesized.stackName, accountId, synthesized: template, plan, resources, outputs };
}

/** Every function's code is in moto's S3 before CreateStack, or the error names the function. */
async function checkFunctionCode(moto: MotoApi, template: Template, accountId: string): Promise<void> {
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const { bucket, key } = functionCodeLocation(template, logicalId);
    const at = `/${resolvePseudo(bucket, accountId, MOTO_REGION)}/${key}`;
    await moto.call('s3', 'HEAD', at).catch(() => {
      throw new Error(`cannot create function ${logicalId}: its code s3:/${at} is not in moto's S3 (no such asset in cdk.out)`);
    });
  }
}

async function publishAssets(moto: MotoApi, stack: SynthesizedStack, accountId: string): Promise<void> {
  const buckets = new Set<string>();
  for (const asset of stack.assets) {
    const bucket = resolvePseudo(asset.bucketName, accountId, MOTO_REGION);
    if (!buckets.has(bucket)) {
      await moto.call('s3', 'PUT', `/${bucket}`).catch((error: unknown) => {
        if (!String(error).includes('BucketAlreadyOwnedByYou')) throw error;
      });
      buckets.add(bucket);
    }
  }
  await Promise.all(
    stack.assets.map(async (asset) => {
      const body = asset.packaging === 'zip' ? await zipped(asset.sourcePath) : readFileSync(asset.sourcePath);
      const bucket = resolvePseudo(asset.bucketName, accountId, MOTO_REGION);
      await moto.call('s3', 'PUT', `/${bucket}/${resolvePseudo(asset.objectKey, accountId, MOTO_REGION)}`, body, {
        'content-type': 'application/octet-stream',
      });
    }),
  );
}

/** Zips by asset folder, made once per process (an asset folder is named by its content hash). */
const zips = new Map<string, Promise<Buffer>>();

/** The folder's files at the root of a zip, as the CDK packages a Lambda asset. */
function zipped(folder: string): Promise<Buffer> {
  let zip = zips.get(folder);
  if (!zip) {
    zip = (async () => {
      const work = mkdtempSync(join(tmpdir(), 'capless-asset-'));
      try {
        const zipPath = join(work, 'asset.zip');
        await run('zip', ['-q', '-r', '-X', zipPath, '.'], { cwd: folder });
        return readFileSync(zipPath);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    })();
    zips.set(folder, zip);
  }
  return zip;
}

async function waitForCreate(moto: MotoApi, stackName: string): Promise<Record<string, string>> {
  const deadline = Date.now() + STACK_TIMEOUT_MS;
  for (;;) {
    const xml = await moto.query('cloudformation', 'DescribeStacks', CFN_VERSION, { StackName: stackName });
    const status = xmlField(xml, 'StackStatus') ?? 'UNKNOWN';
    if (status === 'CREATE_COMPLETE') {
      const outputs: Record<string, string> = {};
      for (const member of xmlMembers(xml, 'OutputKey')) outputs[xmlField(member, 'OutputKey') ?? ''] = xmlField(member, 'OutputValue') ?? '';
      return outputs;
    }
    if (!status.endsWith('_IN_PROGRESS')) {
      const events = await moto.query('cloudformation', 'DescribeStackEvents', CFN_VERSION, { StackName: stackName });
      const failed = xmlMembers(events, 'ResourceStatus')
        .filter((e) => (xmlField(e, 'ResourceStatus') ?? '').endsWith('FAILED'))
        .map((e) => `${xmlField(e, 'LogicalResourceId')} (${xmlField(e, 'ResourceType')}): ${xmlField(e, 'ResourceStatusReason')}`);
      throw new Error(`moto could not create ${stackName} (${status}): ${failed.join('; ') || xmlField(xml, 'StackStatusReason') || 'no reason given'}`);
    }
    if (Date.now() > deadline) throw new Error(`${stackName} still ${status} after ${STACK_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stackResources(moto: MotoApi, stackName: string): Promise<Map<string, DeployedResource>> {
  const xml = await moto.query('cloudformation', 'DescribeStackResources', CFN_VERSION, { StackName: stackName });
  const resources = new Map<string, DeployedResource>();
  for (const member of xmlMembers(xml, 'LogicalResourceId')) {
    const logicalId = xmlField(member, 'LogicalResourceId') ?? '';
    resources.set(logicalId, { logicalId, physicalId: xmlField(member, 'PhysicalResourceId') ?? '', type: xmlField(member, 'ResourceType') ?? '' });
  }
  return resources;
}
