/** CAPD kinds, accepted loosely so the upstream examples apply unchanged (no Docker backend). */

import { looseKindSchema } from '../common/envelope.js';

export const dockerClusterSchema = looseKindSchema;
export const dockerClusterTemplateSchema = looseKindSchema;
export const dockerMachineSchema = looseKindSchema;
export const dockerMachineTemplateSchema = looseKindSchema;
