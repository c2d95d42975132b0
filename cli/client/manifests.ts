import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../io/usage-error.js';

/** One object from a manifest: checked to have apiVersion, kind and metadata.name. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  body: Record<string, unknown>;
  source: string;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Reads `-f FILE|DIR|-`: multi-document YAML or JSON; `List` kinds are expanded; empty documents skipped. */
export async function readManifests(source: string, io: CliIo): Promise<ManifestObject[]> {
  if (source === '-') return parseManifests(await io.readStdin(), 'stdin');
  const path = isAbsolute(source) ? source : resolve(io.cwd, source);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new UsageError(`the path "${source}" does not exist`);
  }
  if (!info.isDirectory()) return parseManifests(await readFile(path, 'utf8'), source);
  const files = (await readdir(path)).filter((f) => MANIFEST_EXTENSIONS.has(extname(f))).sort();
  const all: ManifestObject[] = [];
  for (const file of files) all.push(...parseManifests(await readFile(join(path, file), 'utf8'), join(source, file)));
  return all;
}

export function parseManifests(text: string, source: string): ManifestObject[] {
  const documents = parseAllDocuments(text);
  const docs = Array.isArray(documents) ? documents : [documents];
  const objects: ManifestObject[] = [];
  for (const [index, doc] of docs.entries()) {
    if (doc.errors.length > 0) throw new UsageError(`${source}: document ${index + 1} is not valid YAML: ${doc.errors[0]?.message ?? ''}`);
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    objects.push(...expand(value, `${source}#${index + 1}`));
  }
  return objects;
}

function expand(value: unknown, source: string): ManifestObject[] {
  if (!isRecord(value)) throw new UsageError(`${source}: a manifest document must be an object`);
  const kind = stringAt(value, 'kind');
  if (kind?.endsWith('List') && Array.isArray(value.items)) return value.items.flatMap((item) => expand(item, source));
  const apiVersion = stringAt(value, 'apiVersion');
  const name = stringAt(value, 'metadata', 'name');
  if (!apiVersion || !kind) throw new UsageError(`${source}: apiVersion and kind are required`);
  if (!name) throw new UsageError(`${source}: ${kind} has no metadata.name`);
  const namespace = stringAt(value, 'metadata', 'namespace');
  return [{ apiVersion, kind, name, ...(namespace ? { namespace } : {}), body: value, source }];
}
