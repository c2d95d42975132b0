/** The extensions capless hosts out of the box. */

import type { RuntimeExtension } from './define-extension.js';
import { upgradeGateExtension } from './extensions/upgrade-gate.js';

export function builtinExtensions(options: { now?: () => Date } = {}): RuntimeExtension[] {
  return [upgradeGateExtension(options)];
}
