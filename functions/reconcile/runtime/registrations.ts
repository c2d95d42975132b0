/**
 * The handler registry of Cluster API (internal/runtime/registry) read from the store: every
 * handler an ExtensionConfig's discovery wrote to `status.handlers`, registered as
 * `<handler>.<ExtensionConfig name>`.
 */

import { z } from 'zod';
import { FAILURE_POLICIES, HOOKS_API_VERSION, type HookName } from '../../../shared/contracts/hooks/index.js';
import type { StoredObject } from '../../../shared/contracts/object.js';
import { RUNTIME_GROUP } from '../../../shared/contracts/schemas/groups.js';
import { extensionConfigSchema } from '../../../shared/contracts/schemas/runtime/extension-config.js';
import type { LabelSelector } from '../../../shared/contracts/schemas/common/selector.js';
import { selectorMatches } from '../../../shared/contracts/validation/label-selector.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';

export const EXTENSION_CONFIG_KIND = { group: RUNTIME_GROUP, kind: 'ExtensionConfig' } as const;

/** `status.handlers[]` as the ExtensionConfig reconciler writes it. */
export const registeredHandlerSchema = z.object({
  name: z.string(),
  requestHook: z.object({ apiVersion: z.string(), hook: z.string() }),
  timeoutSeconds: z.int32().min(0).max(30).default(10),
  failurePolicy: z.enum(FAILURE_POLICIES).default('Fail'),
});

export interface Registration {
  /** `<handler>.<ExtensionConfig name>`. */
  name: string;
  handlerName: string;
  extensionConfigName: string;
  /** The ExtensionConfig's resourceVersion (a changed config invalidates cached answers). */
  extensionConfigVersion: string;
  hook: string;
  timeoutSeconds: number;
  failurePolicy: 'Fail' | 'Ignore';
  clientConfig: unknown;
  namespaceSelector?: LabelSelector;
  settings: Record<string, string>;
}

/** The registrations one ExtensionConfig contributes (none when it does not parse). */
export function registrationsOf(extensionConfig: StoredObject): Registration[] {
  const parsed = extensionConfigSchema.safeParse(extensionConfig);
  if (!parsed.success) return [];
  const handlers = z.array(registeredHandlerSchema).safeParse(parsed.data.status?.handlers ?? []);
  if (!handlers.success) return [];
  const { spec } = parsed.data;
  return handlers.data.map((handler) => ({
    name: `${handler.name}.${extensionConfig.metadata.name}`,
    handlerName: handler.name,
    extensionConfigName: extensionConfig.metadata.name,
    extensionConfigVersion: extensionConfig.metadata.resourceVersion,
    hook: handler.requestHook.apiVersion === HOOKS_API_VERSION ? handler.requestHook.hook : `${handler.requestHook.apiVersion}/${handler.requestHook.hook}`,
    timeoutSeconds: handler.timeoutSeconds,
    failurePolicy: handler.failurePolicy,
    clientConfig: spec.clientConfig,
    ...(spec.namespaceSelector ? { namespaceSelector: spec.namespaceSelector } : {}),
    settings: { ...(spec.settings ?? {}) },
  }));
}

/**
 * The labels of a namespace. capless has no Namespace objects; every namespace carries the label
 * the Kubernetes API server sets on each (`kubernetes.io/metadata.name=<name>`), which is what
 * ExtensionConfig namespaceSelectors match on in practice (Cluster API's own example does).
 */
export function namespaceLabels(namespace: string): Record<string, string> {
  return { 'kubernetes.io/metadata.name': namespace };
}

/** Registrations for `hook` whose namespaceSelector matches `namespace`, by ExtensionConfig name then discovery order. */
export async function registrationsFor(store: ObjectStore, hook: HookName, namespace: string): Promise<Registration[]> {
  const configs: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await store.list({ ...EXTENSION_CONFIG_KIND, ...(token ? { continue: token } : {}) });
    configs.push(...page.items.filter((c) => c.metadata.deletionTimestamp === undefined));
    token = page.continue;
  } while (token);
  configs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name) || a.metadata.namespace.localeCompare(b.metadata.namespace));
  const labels = namespaceLabels(namespace);
  return configs
    .flatMap(registrationsOf)
    .filter((r) => r.hook === hook && (r.namespaceSelector === undefined || selectorMatches(r.namespaceSelector, labels)));
}
