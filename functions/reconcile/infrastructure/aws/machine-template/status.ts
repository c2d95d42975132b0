/** The AWSMachineTemplate's status: capacity and nodeInfo as found (or as they were), nothing else of its own. */

import type { StatusUpdate } from '../../../engine/skeleton/types.js';
import type { AwsMachineTemplateScope } from './scope.js';

export function computeAwsMachineTemplateStatus(s: AwsMachineTemplateScope): StatusUpdate {
  const nodeInfo = s.nodeInfo?.architecture || s.nodeInfo?.operatingSystem ? s.nodeInfo : undefined;
  return {
    fields: {
      ...(Object.keys(s.capacity).length > 0 ? { capacity: s.capacity } : {}),
      ...(nodeInfo ? { nodeInfo } : {}),
    },
  };
}
