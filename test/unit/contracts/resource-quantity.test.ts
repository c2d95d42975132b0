/**
 * Quantities as Go prints them: every row is what k8s.io/apimachinery v0.36.3 printed for the same
 * input (`resource.NewQuantity(n, resource.DecimalSI).String()` and the JSON of
 * `resource.MustParse(fmt.Sprintf("%dMi", n))`, the two calls CAPA's template controller makes).
 */

import { describe, expect, it } from 'vitest';
import { decimalQuantity, mebibytesQuantity } from '../../../shared/contracts/resource-quantity.js';

describe('resource quantities in canonical text', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [2, '2'],
    [448, '448'],
    [1000, '1k'],
    [1024, '1024'],
    [2000, '2k'],
    [1000000, '1M'],
  ])('%i CPUs print as %s', (count, text) => {
    expect(decimalQuantity(count)).toBe(text);
  });

  it.each([
    [0, '0'],
    [1, '1Mi'],
    [512, '512Mi'],
    [1024, '1Gi'],
    [1536, '1536Mi'],
    [3840, '3840Mi'],
    [4096, '4Gi'],
    [15616, '15616Mi'],
    [16384, '16Gi'],
    [1048576, '1Ti'],
    [4194304, '4Ti'],
  ])('%i MiB print as %s', (mebibytes, text) => {
    expect(mebibytesQuantity(mebibytes)).toBe(text);
  });

  it.each([[1.5], [Number.NaN], [2 ** 60]])('refuses %d, which is no whole count', (value) => {
    expect(() => decimalQuantity(value)).toThrow(RangeError);
    expect(() => mebibytesQuantity(value)).toThrow(RangeError);
  });
});
