import { describe, expect, it } from 'vitest';
import { initializationStatus } from '../../shared/contracts/initialization.js';

describe('initializationStatus', () => {
  it.each<{ flags: Record<string, boolean>; expected: object }>([
    { flags: { infrastructureProvisioned: false, controlPlaneInitialized: false }, expected: {} },
    { flags: { infrastructureProvisioned: true, controlPlaneInitialized: false }, expected: { initialization: { infrastructureProvisioned: true } } },
    { flags: { bootstrapDataSecretCreated: true, infrastructureProvisioned: true }, expected: { initialization: { bootstrapDataSecretCreated: true, infrastructureProvisioned: true } } },
    { flags: {}, expected: {} },
  ])('writes only the true flags of $flags', ({ flags, expected }) => {
    expect(initializationStatus(flags)).toEqual(expected);
  });
});
