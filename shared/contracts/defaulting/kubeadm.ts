/** Defaults of the kubeadm bootstrap and control-plane kinds (C14 kubeadm webhooks/admission). */

import type { KubeadmConfig, KubeadmConfigTemplate } from '../schemas/bootstrap/kubeadm-config.js';
import type { KubeadmConfigSpec } from '../schemas/bootstrap/kubeadm-config-spec.js';
import type { KubeadmControlPlane } from '../schemas/controlplane/kubeadm-control-plane.js';
import { DEFAULT_MAX_SURGE, DEFAULT_REPLICAS } from './core.js';
import { withVersionPrefix } from './labels.js';

export const DEFAULT_FORMAT = 'cloud-config';

export function defaultKubeadmConfigSpec(spec: KubeadmConfigSpec | undefined): KubeadmConfigSpec {
  return { ...spec, format: spec?.format ?? DEFAULT_FORMAT };
}

export function defaultKubeadmConfig(config: KubeadmConfig): KubeadmConfig {
  return { ...config, spec: defaultKubeadmConfigSpec(config.spec) };
}

/** Cluster API's Go types make `spec.template.spec` a value, so its defaults apply even to a template with no spec. */
export function defaultKubeadmConfigTemplate(template: KubeadmConfigTemplate): KubeadmConfigTemplate {
  const inner = template.spec?.template;
  return { ...template, spec: { ...template.spec, template: { ...inner, spec: defaultKubeadmConfigSpec(inner?.spec) } } };
}

export function defaultKubeadmControlPlane(kcp: KubeadmControlPlane): KubeadmControlPlane {
  const strategy = kcp.spec.rollout?.strategy;
  return {
    ...kcp,
    spec: {
      ...kcp.spec,
      replicas: kcp.spec.replicas ?? DEFAULT_REPLICAS,
      version: withVersionPrefix(kcp.spec.version) ?? kcp.spec.version,
      kubeadmConfigSpec: defaultKubeadmConfigSpec(kcp.spec.kubeadmConfigSpec),
      rollout: {
        ...kcp.spec.rollout,
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: strategy?.rollingUpdate?.maxSurge ?? DEFAULT_MAX_SURGE },
        },
      },
    },
  };
}
