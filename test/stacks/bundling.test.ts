import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringAt, valueAt } from '../../shared/contracts/json.js';
import { type SynthesizedStack, synthStack } from './support/synth-stack.js';

/**
 * The one test that bundles for real: the local esbuild (no Docker) turns every handler into an
 * ESM bundle with a source map, leaving the AWS SDK to the runtime.
 */
const outdir = mkdtempSync(join(tmpdir(), 'capless-bundling-'));
let synthesized: SynthesizedStack;

beforeAll(() => {
  synthesized = synthStack({}, { bundle: true, outdir });
}, 180_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

function assetDirs(): string[] {
  const functions = Object.values(synthesized.template.findResources('AWS::Lambda::Function'));
  return functions.map((fn) => {
    const key = stringAt(valueAt(fn, 'Properties', 'Code'), 'S3Key') ?? '';
    return join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
  });
}

describe('function bundles', () => {
  it('exist for every function as index.mjs with a source map', () => {
    const dirs = assetDirs();
    expect(dirs).toHaveLength(11);
    for (const dir of dirs) {
      expect(existsSync(join(dir, 'index.mjs')), dir).toBe(true);
      expect(existsSync(join(dir, 'index.mjs.map')), dir).toBe(true);
    }
  });

  it('are ES modules that export the handler and bundle no AWS SDK', () => {
    for (const dir of assetDirs()) {
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code).toMatch(/export\s*\{[^}]*as handler[^}]*\}|export\s*\{[^}]*\bhandler\b[^}]*\}/);
      expect(code).toContain('createRequire');
      expect(code).not.toMatch(/@aws-sdk\/client-[a-z-]+\/dist-/);
    }
  });
});
