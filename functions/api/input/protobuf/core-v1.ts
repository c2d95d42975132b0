/**
 * The core/v1 kinds capless serves, as protobuf field tables: what client-go's typed clients send
 * (`kubectl create secret|configmap|namespace`, controller-runtime writing a corev1.Namespace in
 * `clusterctl move`). Field numbers: k8s.io/api core/v1 `generated.proto`.
 */

import type { MessageTable } from './messages.js';
import { OBJECT_META } from './meta-v1.js';

const NAMESPACE_CONDITION: MessageTable = {
  1: { name: 'type', type: 'string' },
  2: { name: 'status', type: 'string' },
  4: { name: 'lastTransitionTime', type: 'time' },
  5: { name: 'reason', type: 'string' },
  6: { name: 'message', type: 'string' },
};

/** The core/v1 kinds read from protobuf, by kind. */
export const CORE_V1_KINDS: Readonly<Record<string, MessageTable>> = {
  Secret: {
    1: { name: 'metadata', type: OBJECT_META },
    5: { name: 'immutable', type: 'bool' },
    2: { name: 'data', type: 'bytesMap' },
    4: { name: 'stringData', type: 'stringMap' },
    3: { name: 'type', type: 'string' },
  },
  ConfigMap: {
    1: { name: 'metadata', type: OBJECT_META },
    4: { name: 'immutable', type: 'bool' },
    2: { name: 'data', type: 'stringMap' },
    3: { name: 'binaryData', type: 'bytesMap' },
  },
  Namespace: {
    1: { name: 'metadata', type: OBJECT_META },
    2: { name: 'spec', type: { 1: { name: 'finalizers', type: 'string', repeated: true } } },
    3: { name: 'status', type: { 1: { name: 'phase', type: 'string' }, 2: { name: 'conditions', type: NAMESPACE_CONDITION, repeated: true } } },
  },
};

