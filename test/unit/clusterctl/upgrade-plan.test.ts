import { describe, expect, it } from 'vitest';
import { parseProviderMetadata, type ProviderMetadata } from '../../../shared/contracts/clusterctl/metadata.js';
import { compareSemVer, parseSemVer } from '../../../shared/contracts/clusterctl/semver.js';
import { type InstalledProvider, planUpgrade, renderUpgradePlan, UpgradePlanError } from '../../../shared/contracts/clusterctl/upgrade-plan.js';

const series = (...entries: [number, number, string][]): ProviderMetadata => ({ releaseSeries: entries.map(([major, minor, contract]) => ({ major, minor, contract })) });

function provider(name: string, type: InstalledProvider['type'], version: string, metadata: ProviderMetadata, availableVersions: string[]): InstalledProvider {
  return { name, namespace: `${name}-system`, type, version, metadata, availableVersions };
}

/** `contract: name=next,name=next` for each plan, as the cases below read. */
function summary(providers: InstalledProvider[]): string[] {
  return planUpgrade(providers).map((plan) => `${plan.contract}: ${plan.providers.map((p) => `${p.name}=${p.nextVersion || '-'}`).join(',')}`);
}

// The cases of clusterctl's own upgrader_test.go (Test_providerUpgrader_Plan), with v1beta1 as the
// older and v1beta2 as the newer contract.
describe("upgrade plan follows clusterctl's rules", () => {
  it.each([
    [
      'upgrade within the current contract: the newest patch of the current series',
      [provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta2']), ['v1.0.0', 'v1.0.1', 'v1.0.2'])],
      ['v1beta2: cluster-api=v1.0.2'],
    ],
    [
      'release series older than the current minor are not candidates',
      [provider('cluster-api', 'CoreProvider', 'v1.1.0', series([1, 0, 'v1beta1'], [1, 1, 'v1beta2']), ['v1.0.5', 'v1.1.0'])],
      ['v1beta2: cluster-api=-'],
    ],
    [
      'upgrade to the next contract: one plan per contract',
      [provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta1'], [2, 0, 'v1beta2']), ['v1.0.1', 'v2.0.0', 'v2.0.1'])],
      ['v1beta1: cluster-api=v1.0.1', 'v1beta2: cluster-api=v2.0.1'],
    ],
    [
      'a provider without a target on the next contract drops that plan (all change contract together)',
      [
        provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta1'], [2, 0, 'v1beta2']), ['v1.0.1', 'v2.0.0']),
        provider('infrastructure-infra', 'InfrastructureProvider', 'v2.0.0', series([2, 0, 'v1beta1']), ['v2.0.1']),
      ],
      ['v1beta1: cluster-api=v1.0.1,infrastructure-infra=v2.0.1'],
    ],
    [
      'every provider with a target on the next contract keeps it',
      [
        provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta1'], [2, 0, 'v1beta2']), ['v2.0.0']),
        provider('infrastructure-infra', 'InfrastructureProvider', 'v2.0.0', series([2, 0, 'v1beta1'], [3, 0, 'v1beta2']), ['v3.0.0']),
      ],
      ['v1beta1: cluster-api=-,infrastructure-infra=-', 'v1beta2: cluster-api=v2.0.0,infrastructure-infra=v3.0.0'],
    ],
    [
      'pre-releases are never targets',
      [provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta2'], [1, 1, 'v1beta2']), ['v1.0.1', 'v1.1.0-rc.0', 'v1.1.0-beta.1'])],
      ['v1beta2: cluster-api=v1.0.1'],
    ],
    [
      'providers are listed by type order, then name',
      [
        provider('infrastructure-b', 'InfrastructureProvider', 'v1.0.0', series([1, 0, 'v1beta2']), []),
        provider('bootstrap-kubeadm', 'BootstrapProvider', 'v1.0.0', series([1, 0, 'v1beta2']), []),
        provider('infrastructure-a', 'InfrastructureProvider', 'v1.0.0', series([1, 0, 'v1beta2']), []),
        provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta2']), []),
      ],
      ['v1beta2: cluster-api=-,bootstrap-kubeadm=-,infrastructure-a=-,infrastructure-b=-'],
    ],
    ['no core provider: no plan', [provider('infrastructure-a', 'InfrastructureProvider', 'v1.0.0', series([1, 0, 'v1beta2']), [])], []],
  ])('%s', (_name, providers, expected) => {
    expect(summary(providers)).toEqual(expected);
  });

  it.each([
    ['a current version that is not semver', provider('cluster-api', 'CoreProvider', 'latest', series([1, 0, 'v1beta2']), []), /not a semantic version/],
    ['a current version outside every release series', provider('cluster-api', 'CoreProvider', 'v1.5.0', series([1, 0, 'v1beta2']), []), /v1\.5\.0 \(the current version\).*does not match any release series/],
    ['an available version outside every release series', provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta2']), ['v1.1.0']), /version v1\.1\.0 .*does not match any release series/],
  ])('refuses %s, never plans it', (_name, broken, message) => {
    expect(() => planUpgrade([broken])).toThrow(UpgradePlanError);
    expect(() => planUpgrade([broken])).toThrow(message);
  });

  it('renders the plan in clusterctl\'s shape', () => {
    const text = renderUpgradePlan(planUpgrade([provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta2']), ['v1.0.3'])]), 'v1beta2');
    expect(text.split('\n').slice(0, 6)).toEqual([
      'Checking new release availability...',
      '',
      'Latest release available for the v1beta2 API Version of Cluster API (contract):',
      '',
      'NAME          NAMESPACE            TYPE           CURRENT VERSION   NEXT VERSION',
      'cluster-api   cluster-api-system   CoreProvider   v1.0.0            v1.0.3',
    ]);
    expect(renderUpgradePlan(planUpgrade([provider('cluster-api', 'CoreProvider', 'v1.0.0', series([1, 0, 'v1beta2']), [])]), 'v1beta2')).toContain('Already up to date\n\nYou are already up to date!');
  });
});

describe('provider metadata (metadata.yaml)', () => {
  const doc = (releaseSeries: unknown) => ({ apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3', kind: 'Metadata', ...(releaseSeries === undefined ? {} : { releaseSeries }) });
  it('reads the release series', () => {
    expect(parseProviderMetadata(doc([{ major: 1, minor: 14, contract: 'v1beta2' }]), 'm.yaml')).toEqual(series([1, 14, 'v1beta2']));
  });
  it.each([
    ['no releaseSeries', doc(undefined), /releaseSeries: Required value/],
    ['an empty releaseSeries', doc([]), /releaseSeries: Required value/],
    ['a series without a contract', doc([{ major: 1, minor: 0 }]), /releaseSeries\[0\]\.contract/],
    ['a negative minor', doc([{ major: 1, minor: -1, contract: 'v1beta2' }]), /releaseSeries\[0\]\.minor/],
    ['a series listed twice', doc([{ major: 1, minor: 0, contract: 'v1beta2' }, { major: 1, minor: 0, contract: 'v1beta1' }]), /1\.0 is listed twice/],
    ['another kind', { apiVersion: 'v1', kind: 'ConfigMap' }, /clusterctl\.cluster\.x-k8s\.io\/v1alpha3 Metadata/],
    ['not an object', 'text', /not a YAML object/],
  ])('refuses %s', (_name, document, message) => {
    expect(() => parseProviderMetadata(document, 'm.yaml')).toThrow(message);
  });
});

describe('semantic versions', () => {
  it.each([
    ['v1.2.3', 'v1.2.4', -1],
    ['v1.10.0', 'v1.9.9', 1],
    ['v1.0.0-rc.1', 'v1.0.0', -1],
    ['v1.0.0-rc.2', 'v1.0.0-rc.10', -1],
    ['1.0.0', 'v1.0.0', 0],
    ['v1.0.0+build.1', 'v1.0.0', 0],
  ])('%s vs %s', (a, b, sign) => {
    const x = parseSemVer(a);
    const y = parseSemVer(b);
    expect(x && y ? Math.sign(compareSemVer(x, y)) : 'unparsed').toBe(sign);
  });
  it.each(['latest', 'v1.2', 'v01.2.3', '1.2.3.4', '', 'v1.2.3-'])('%s is not semver', (text) => {
    expect(parseSemVer(text)).toBeUndefined();
  });
});
