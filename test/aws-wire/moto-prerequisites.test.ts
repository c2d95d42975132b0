/**
 * `test:aws` on a machine without Python or without moto must fail saying what to install: the
 * global setup throws `motoMissing()`'s text. Checked with real interpreters: one that does not
 * exist, and python3 without its site-packages (`-I -S`), where moto cannot be found.
 */

import { describe, expect, it } from 'vitest';
import { MOTO_VERSION, motoMissing } from './setup/moto-server.js';

const INSTALL_LINE = `pip install "moto[server]==${MOTO_VERSION}"`;

describe('motoMissing', () => {
  it.each([
    { python: ['capless-no-such-python3'] as const, says: [/needs Python 3 on PATH as `capless-no-such-python3`/, /apt-get install -y python3/] },
    { python: ['python3', '-I', '-S'] as const, says: [/not installed for python3 \(missing Python modules: moto\b/] },
  ])('names what is missing for $python', ({ python, says }) => {
    const missing = motoMissing(python);

    for (const phrase of says) expect(missing).toMatch(phrase);
    expect(missing).toContain(INSTALL_LINE);
  });

  it('finds nothing missing on this machine, where the setup started moto', () => {
    expect(motoMissing()).toBeUndefined();
  });
});
