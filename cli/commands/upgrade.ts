import { parseArgs } from 'node:util';
import { ANNOTATION_AVAILABLE_VERSIONS, CAPLESS_CONTRACT, CLUSTERCTL_API_VERSION, providerTypeOf } from '../../shared/contracts/clusterctl/inventory.js';
import { InvalidMetadataError, parseProviderMetadata } from '../../shared/contracts/clusterctl/metadata.js';
import { type InstalledProvider, planUpgrade, renderUpgradePlan, UpgradePlanError } from '../../shared/contracts/clusterctl/upgrade-plan.js';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import type { ProviderType } from '../../shared/contracts/provider-contract.js';
import { CONNECTION_OPTIONS, openSession, type Session } from '../client/session.js';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';

const PROVIDER_TYPES: readonly ProviderType[] = ['CoreProvider', 'BootstrapProvider', 'ControlPlaneProvider', 'InfrastructureProvider', 'IPAMProvider', 'RuntimeExtensionProvider', 'AddonProvider'];

/** `capless upgrade plan`: which versions each installed provider can move to, on the current and the next contract (clusterctl's rules). */
export const upgradeCommand = defineCommand('upgrade', 'plan provider upgrades with clusterctl\'s rules (upgrade plan)', async (args, io) => {
  const { values, positionals } = parseArgs({ args, options: { ...CONNECTION_OPTIONS }, allowPositionals: true, strict: true });
  if (positionals.join(' ') !== 'plan') throw new UsageError('usage: capless upgrade plan (capless applies upgrades by upgrading itself; see capless init)');
  const session = await openSession(values, io);
  try {
    const installed = await installedProviders(session);
    io.stdout.write(renderUpgradePlan(planUpgrade(installed), CAPLESS_CONTRACT));
    return 0;
  } catch (error) {
    if (!(error instanceof UpgradePlanError || error instanceof InvalidMetadataError)) throw error;
    io.stderr.write(`Error: ${error.message}\n`);
    return 1;
  }
});

async function installedProviders(session: Session): Promise<InstalledProvider[]> {
  const items = async (plural: string) => {
    const list = await session.client.get(`/apis/${CLUSTERCTL_API_VERSION}/${plural}`);
    return isRecord(list) && Array.isArray(list.items) ? list.items : [];
  };
  const metadataByKey = new Map((await items('metadata')).map((m) => [`${stringAt(m, 'metadata', 'namespace')}/${stringAt(m, 'metadata', 'name')}`, m]));
  return (await items('providers')).map((provider) => {
    const name = stringAt(provider, 'metadata', 'name') ?? '';
    const namespace = stringAt(provider, 'metadata', 'namespace') ?? '';
    const metadata = metadataByKey.get(`${namespace}/${name}`);
    if (!metadata) throw new UsageError(`provider ${namespace}/${name} has no metadata recorded: run capless init`);
    const available = stringAt(metadata, 'metadata', 'annotations', ANNOTATION_AVAILABLE_VERSIONS) ?? '';
    return {
      name,
      namespace,
      type: providerType(stringAt(provider, 'type') ?? '', name),
      version: stringAt(provider, 'version') ?? '',
      metadata: parseProviderMetadata(metadata, `metadata ${namespace}/${name}`),
      availableVersions: available.split(',').filter(Boolean),
    };
  });
}

function providerType(type: string, name: string): ProviderType {
  const known = PROVIDER_TYPES.find((t) => t === type) ?? providerTypeOf(type);
  if (!known) throw new UsageError(`provider ${name}: unknown type ${JSON.stringify(type)}`);
  return known;
}
