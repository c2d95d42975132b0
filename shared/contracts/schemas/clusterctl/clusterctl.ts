/** clusterctl's Metadata and Provider inventory kinds (no spec: fields sit at the top level). */

import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { int32 } from '../common/names.js';

export const releaseSeriesSchema = z.looseObject({
  major: int32().min(0),
  minor: int32().min(0),
  contract: z.string().min(1),
});

export const clusterctlMetadataSchema = z.looseObject({
  ...envelope,
  releaseSeries: z.array(releaseSeriesSchema).optional(),
});

export const clusterctlProviderSchema = z.looseObject({
  ...envelope,
  providerName: z.string().optional(),
  type: z.string().optional(),
  version: z.string().optional(),
  watchedNamespace: z.string().optional(),
});

export type ClusterctlMetadata = z.infer<typeof clusterctlMetadataSchema>;
export type ClusterctlProvider = z.infer<typeof clusterctlProviderSchema>;
