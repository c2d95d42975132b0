import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { type InventoryEntry, INVENTORY_NAMESPACE, CAPLESS_CONTRACT, providerTypeOf } from '../../shared/contracts/clusterctl/inventory.js';
import { parseProviderMetadata } from '../../shared/contracts/clusterctl/metadata.js';
import { compareSemVer, parseSemVer } from '../../shared/contracts/clusterctl/semver.js';
import { UsageError } from '../io/usage-error.js';

const SPEC = /^([a-z-]+)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?):([^=]+)=(.+)$/;

/**
 * An external provider from `--provider TYPE/NAME:VERSION=PATH`. PATH is a metadata.yaml file (the
 * provider then offers only VERSION) or a directory laid out as clusterctl's local repository,
 * `PATH/<version>/metadata.yaml` (every such version is on offer; the newest one's metadata is
 * read, as clusterctl does). The installed version must sit in a release series on capless's
 * contract: an incompatible provider is reported, never recorded.
 */
export function externalProvider(spec: string, cwd: string): InventoryEntry {
  const match = SPEC.exec(spec);
  if (!match) throw new UsageError(`--provider ${JSON.stringify(spec)}: expected TYPE/NAME:VERSION=PATH, e.g. infrastructure/aws:v2.9.0=./aws`);
  const [, typeWord = '', providerName = '', , version = '', pathText = ''] = match;
  const type = providerTypeOf(typeWord);
  if (!type) throw new UsageError(`--provider ${spec}: unknown provider type ${JSON.stringify(typeWord)}`);
  if (type === 'CoreProvider') throw new UsageError('--provider: the core provider is capless itself');
  const installed = parseSemVer(version);
  if (!installed) throw new UsageError(`--provider ${spec}: version ${JSON.stringify(version)} is not a semantic version (vMAJOR.MINOR.PATCH)`);
  const path = resolve(cwd, pathText);
  if (!existsSync(path)) throw new UsageError(`--provider ${spec}: ${path} does not exist`);
  const { metadataFile, availableVersions } = statSync(path).isDirectory() ? repositoryLayout(path, spec) : { metadataFile: path, availableVersions: [version] };
  const metadata = readMetadata(metadataFile);
  const series = metadata.releaseSeries.find((s) => s.major === installed.major && s.minor === installed.minor);
  if (!series) throw new UsageError(`--provider ${spec}: version ${version} matches no release series in ${metadataFile}`);
  if (series.contract !== CAPLESS_CONTRACT) {
    throw new UsageError(`--provider ${spec}: incompatible: ${version} follows the ${series.contract} contract, capless serves ${CAPLESS_CONTRACT}; nothing was recorded`);
  }
  return { providerName, type, version, namespace: INVENTORY_NAMESPACE, metadata, availableVersions };
}

function readMetadata(file: string) {
  try {
    return parseProviderMetadata(parse(readFileSync(file, 'utf8')), file);
  } catch (error) {
    // A YAML syntax error or a document clusterctl would refuse: either way the user's input.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function repositoryLayout(dir: string, spec: string): { metadataFile: string; availableVersions: string[] } {
  const versions = readdirSync(dir)
    .filter((entry) => parseSemVer(entry) && existsSync(join(dir, entry, 'metadata.yaml')))
    .sort((a, b) => compareSemVer(parseSemVer(a) ?? zero, parseSemVer(b) ?? zero));
  const newest = versions.at(-1);
  if (!newest) throw new UsageError(`--provider ${spec}: ${dir} holds no <version>/metadata.yaml`);
  return { metadataFile: join(dir, newest, 'metadata.yaml'), availableVersions: versions };
}

const zero = { major: 0, minor: 0, patch: 0, preRelease: '', text: '0.0.0' };
