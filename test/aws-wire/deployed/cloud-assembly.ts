/**
 * The stack `npm run synth` wrote to cdk.out: its template and its file assets (the function
 * bundles), read from the cloud assembly's manifest. A missing file is an error naming it.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { asTemplate, type Template } from './deploy-plan.js';

export interface FileAsset {
  hash: string;
  /** Folder or file under cdk.out. */
  sourcePath: string;
  packaging: 'zip' | 'file';
  /** May hold `${AWS::AccountId}`, `${AWS::Region}`, `${AWS::Partition}`. */
  bucketName: string;
  objectKey: string;
}

export interface SynthesizedStack {
  stackName: string;
  template: Template;
  assets: FileAsset[];
}

const manifestSchema = z.looseObject({
  artifacts: z.record(
    z.string(),
    z.looseObject({
      type: z.string(),
      properties: z.looseObject({ templateFile: z.string().optional() }).optional(),
    }),
  ),
});

const assetsSchema = z.looseObject({
  files: z
    .record(
      z.string(),
      z.looseObject({
        source: z.looseObject({ path: z.string(), packaging: z.enum(['zip', 'file']).optional() }),
        destinations: z.record(z.string(), z.looseObject({ bucketName: z.string(), objectKey: z.string() })),
      }),
    )
    .default({}),
});

function readJson(path: string, what: string): unknown {
  if (!existsSync(path)) throw new Error(`${what} is missing: ${path} (run \`npm run synth\` first)`);
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The one CloudFormation stack in the assembly at `cdkOut` (capless synthesizes one). */
export function readSynthesizedStack(cdkOut: string): SynthesizedStack {
  const manifest = manifestSchema.parse(readJson(join(cdkOut, 'manifest.json'), 'the cloud assembly manifest'));
  const stacks = Object.entries(manifest.artifacts).filter(([, a]) => a.type === 'aws:cloudformation:stack');
  if (stacks.length !== 1) throw new Error(`expected one stack in ${cdkOut}, found ${stacks.map(([n]) => n).join(', ') || 'none'}`);
  const [stackName, artifact] = stacks[0] ?? ['', undefined];
  const templateFile = artifact?.properties?.templateFile ?? `${stackName}.template.json`;
  const template = asTemplate(readJson(join(cdkOut, templateFile), `template of ${stackName}`), templateFile);
  const assetsFile = join(cdkOut, `${stackName}.assets.json`);
  const assets = assetsSchema.parse(readJson(assetsFile, `asset manifest of ${stackName}`));
  const files: FileAsset[] = [];
  for (const [hash, asset] of Object.entries(assets.files)) {
    const sourcePath = join(cdkOut, asset.source.path);
    if (!existsSync(sourcePath)) throw new Error(`asset ${hash} is missing from cdk.out: ${sourcePath} (run \`npm run synth\` again)`);
    for (const destination of Object.values(asset.destinations)) {
      files.push({ hash, sourcePath, packaging: asset.source.packaging ?? 'file', bucketName: destination.bucketName, objectKey: destination.objectKey });
    }
  }
  return { stackName, template, assets: files };
}

/** `${AWS::AccountId}` and friends in an asset destination, as CloudFormation would resolve them. */
export function resolvePseudo(text: string, accountId: string, region: string): string {
  const values: Record<string, string> = { AccountId: accountId, Region: region, Partition: 'aws' };
  return text.replace(/\$\{AWS::(AccountId|Region|Partition)\}/g, (_whole, name: string) => values[name] ?? name);
}
