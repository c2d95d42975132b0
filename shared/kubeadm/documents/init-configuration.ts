/** InitConfiguration: the spec's initConfiguration passed through, converted to the target kubeadm API. */
import { type KubeadmApiVersion, KUBEADM_V1BETA4 } from '../api-version.js';
import type { InitConfigurationSpec } from '../types.js';
import { apiEndpoint, durationOf, type KubeadmObject, nodeRegistration, nonEmpty, timeouts } from './fields.js';

export function buildInitConfiguration(
  spec: InitConfigurationSpec | undefined,
  apiVersion: KubeadmApiVersion,
): KubeadmObject {
  const v4 = apiVersion === KUBEADM_V1BETA4;
  return {
    apiVersion,
    kind: 'InitConfiguration',
    bootstrapTokens: nonEmpty(spec?.bootstrapTokens)?.map((token) => ({
      token: token.token,
      description: token.description,
      ttl: durationOf(token.ttlSeconds),
      expires: token.expires,
      usages: nonEmpty(token.usages),
      groups: nonEmpty(token.groups),
    })),
    localAPIEndpoint: apiEndpoint(spec?.localAPIEndpoint),
    nodeRegistration: nodeRegistration(spec?.nodeRegistration, apiVersion),
    patches: spec?.patches?.directory ? { directory: spec.patches.directory } : undefined,
    skipPhases: nonEmpty(spec?.skipPhases),
    timeouts: v4 ? timeouts(spec?.timeouts) : undefined,
  };
}
