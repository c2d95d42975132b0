/** ExtensionConfig validation (Cluster API core/webhooks/admission/extensionconfig.go). */

import { DNS1123_LABEL } from '../schemas/common/names.js';
import type { ExtensionConfig } from '../schemas/runtime/extension-config.js';
import { type FieldError, forbidden, invalid, required } from './field-error.js';

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";

function validateUrl(url: string): FieldError[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [invalid('spec.clientConfig.url', url, 'must be a valid URL, e.g. https://example.com')];
  }
  return parsed.protocol === 'https:' ? [] : [invalid('spec.clientConfig.url', url, "'https' is the only allowed URL scheme")];
}

function validateService(service: NonNullable<ExtensionConfig['spec']['clientConfig']['service']>): FieldError[] {
  const errors: FieldError[] = [];
  if (!DNS1035_LABEL.test(service.name) || service.name.length > 63) {
    errors.push(invalid('spec.clientConfig.service.name', service.name, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"));
  }
  if (!DNS1123_LABEL.test(service.namespace) || service.namespace.length > 63) {
    errors.push(invalid('spec.clientConfig.service.namespace', service.namespace, LABEL_MESSAGE));
  }
  if (service.path !== undefined && !service.path.startsWith('/')) {
    errors.push(invalid('spec.clientConfig.service.path', service.path, 'must start with "/" to be a valid URL path'));
  }
  if (service.port !== undefined && (service.port < 1 || service.port > 65535)) {
    errors.push(invalid('spec.clientConfig.service.port', service.port, 'must be between 1 and 65535, inclusive'));
  }
  return errors;
}

export function validateExtensionConfig(config: ExtensionConfig): FieldError[] {
  const errors: FieldError[] = [];
  const name = config.metadata.name;
  if (typeof name === 'string' && (!DNS1123_LABEL.test(name) || name.length > 63)) {
    errors.push(invalid('metadata.name', name, `ExtensionConfig name should be a valid DNS1123 label name: ${LABEL_MESSAGE}`));
  }
  const { url, service } = config.spec.clientConfig;
  if (url === undefined && service === undefined) errors.push(required('spec.clientConfig', 'either url or service must be defined'));
  if (url !== undefined && service !== undefined) errors.push(forbidden('spec.clientConfig', 'only one of url or service can be defined'));
  if (url !== undefined) errors.push(...validateUrl(url));
  if (service !== undefined) errors.push(...validateService(service));
  return errors;
}
