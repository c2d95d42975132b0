/**
 * The self-review kinds as protobuf field tables: kubectl's typed clients send them so
 * (`kubectl auth can-i`, `can-i --list`, `whoami`). Field numbers: k8s.io/api authorization/v1
 * and authentication/v1 `generated.proto`; the field and label selector attributes are not read.
 */

import type { MessageTable } from './messages.js';
import { OBJECT_META } from './meta-v1.js';

const RESOURCE_ATTRIBUTES: MessageTable = {
  1: { name: 'namespace', type: 'string' },
  2: { name: 'verb', type: 'string' },
  3: { name: 'group', type: 'string' },
  4: { name: 'version', type: 'string' },
  5: { name: 'resource', type: 'string' },
  6: { name: 'subresource', type: 'string' },
  7: { name: 'name', type: 'string' },
};

const NON_RESOURCE_ATTRIBUTES: MessageTable = {
  1: { name: 'path', type: 'string' },
  2: { name: 'verb', type: 'string' },
};

export const AUTHORIZATION_V1_KINDS: Readonly<Record<string, MessageTable>> = {
  SelfSubjectAccessReview: {
    1: { name: 'metadata', type: OBJECT_META },
    2: { name: 'spec', type: { 1: { name: 'resourceAttributes', type: RESOURCE_ATTRIBUTES }, 2: { name: 'nonResourceAttributes', type: NON_RESOURCE_ATTRIBUTES } } },
  },
  SelfSubjectRulesReview: {
    1: { name: 'metadata', type: OBJECT_META },
    2: { name: 'spec', type: { 1: { name: 'namespace', type: 'string' } } },
  },
};

export const AUTHENTICATION_V1_KINDS: Readonly<Record<string, MessageTable>> = {
  SelfSubjectReview: { 1: { name: 'metadata', type: OBJECT_META } },
};
