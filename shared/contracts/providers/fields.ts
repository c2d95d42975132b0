/** Small readers shared by the contract accessors: defensive reads of provider-owned fields. */

import { isRecord } from '../json.js';

export interface MachineAddress {
  type: string;
  address: string;
}

export interface FailureDomain {
  name: string;
  controlPlane: boolean;
  attributes?: Record<string, string>;
}

export interface Endpoint {
  host: string;
  port: number;
}

export function readAddresses(value: unknown): MachineAddress[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) =>
    isRecord(item) && typeof item.type === 'string' && typeof item.address === 'string'
      ? [{ type: item.type, address: item.address }]
      : [],
  );
}

export function readEndpoint(value: unknown): Endpoint | undefined {
  if (!isRecord(value)) return undefined;
  const { host, port } = value;
  if (typeof host !== 'string' || host === '' || typeof port !== 'number' || port <= 0) return undefined;
  return { host, port };
}

function readAttributes(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function failureDomain(name: string, spec: unknown): FailureDomain {
  const attributes = isRecord(spec) ? readAttributes(spec.attributes) : undefined;
  return {
    name,
    controlPlane: isRecord(spec) && spec.controlPlane === true,
    ...(attributes ? { attributes } : {}),
  };
}

/** v1beta2 list `[{name, controlPlane, attributes}]` or v1beta1 map `{name: {controlPlane, attributes}}`, sorted by name. */
export function readFailureDomains(value: unknown): FailureDomain[] {
  const list = Array.isArray(value)
    ? value.flatMap((item) => (isRecord(item) && typeof item.name === 'string' ? [failureDomain(item.name, item)] : []))
    : isRecord(value)
      ? Object.entries(value).map(([name, spec]) => failureDomain(name, spec))
      : [];
  return list.sort((a, b) => a.name.localeCompare(b.name));
}
