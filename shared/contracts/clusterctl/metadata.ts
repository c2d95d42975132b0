import { z } from 'zod';
import { isRecord } from '../json.js';

/** One `releaseSeries` entry of a provider's clusterctl metadata.yaml. */
export interface ReleaseSeries {
  major: number;
  minor: number;
  contract: string;
}

export interface ProviderMetadata {
  releaseSeries: ReleaseSeries[];
}

/** A metadata document clusterctl would refuse; the message names the field. */
export class InvalidMetadataError extends Error {}

const seriesSchema = z.object({ major: z.number().int().min(0), minor: z.number().int().min(0), contract: z.string().regex(/^v[0-9a-z]+$/) });

/**
 * A `clusterctl.cluster.x-k8s.io/v1alpha3` Metadata document, checked as clusterctl v1.11+ does:
 * the kind and apiVersion, at least one release series, each with a major, minor and contract,
 * no major.minor twice. Throws an Error naming the field at fault.
 */
export function parseProviderMetadata(document: unknown, source: string): ProviderMetadata {
  if (!isRecord(document)) throw new InvalidMetadataError(`${source}: not a YAML object`);
  if (document.apiVersion !== 'clusterctl.cluster.x-k8s.io/v1alpha3' || document.kind !== 'Metadata') {
    throw new InvalidMetadataError(`${source}: apiVersion/kind must be clusterctl.cluster.x-k8s.io/v1alpha3 Metadata`);
  }
  if (!Array.isArray(document.releaseSeries) || document.releaseSeries.length === 0) {
    throw new InvalidMetadataError(`${source}: releaseSeries: Required value: at least one release series`);
  }
  const seen = new Set<string>();
  const releaseSeries = document.releaseSeries.map((entry, i) => {
    const parsed = seriesSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidMetadataError(`${source}: releaseSeries[${i}]${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`);
    }
    const key = `${parsed.data.major}.${parsed.data.minor}`;
    if (seen.has(key)) throw new InvalidMetadataError(`${source}: releaseSeries[${i}]: ${key} is listed twice`);
    seen.add(key);
    return parsed.data;
  });
  return { releaseSeries };
}
