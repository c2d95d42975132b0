import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/stacks/functions/project-root.js';
import { RECONCILED_KINDS } from '../../lib/stacks/reconciled-kinds.js';
import { stringAt, valueAt } from '../../shared/contracts/json.js';
import { type SynthesizedStack, synthStack } from './support/synth-stack.js';

/**
 * The one test that bundles for real: the local esbuild (no Docker) turns every handler into a
 * self-contained ESM bundle with a source map, the AWS SDK included (ADR 0090). Each bundle is
 * loaded from a folder of its own outside the repository, as Lambda loads it: nothing may
 * resolve from this checkout's node_modules.
 */
const cdkOut = join(projectRoot(), 'cdk.out');
mkdirSync(cdkOut, { recursive: true });
const outdir = mkdtempSync(join(cdkOut, 'test-bundling-'));
let synthesized: SynthesizedStack;

beforeAll(() => {
  synthesized = synthStack({}, { bundle: true, outdir });
}, 180_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

/** Asset folder and environment of every function. */
function bundles(): { dir: string; environment: Record<string, string> }[] {
  const functions = Object.values(synthesized.template.findResources('AWS::Lambda::Function'));
  return functions.map((fn) => {
    const key = stringAt(valueAt(fn, 'Properties', 'Code'), 'S3Key') ?? '';
    const kind = stringAt(valueAt(fn, 'Properties', 'Environment', 'Variables'), 'RECONCILE_KIND');
    return {
      dir: join(outdir, `asset.${key.replace(/\.zip$/, '')}`),
      environment: {
        TABLE_NAME: 'capless-objects',
        WORK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/work',
        RECONCILER_FUNCTIONS: '{}',
        WATCH_LOG_TABLE_NAME: 'capless-watch-log',
        AWS_REGION: 'us-east-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...(kind ? { RECONCILE_KIND: kind } : {}),
      },
    };
  });
}

/**
 * What Lambda's Node.js runtime puts in scope for response streaming (the watch function's
 * `awslambda.streamifyResponse`), reduced to what loading a module needs.
 */
const LAMBDA_RUNTIME_GLOBAL = 'globalThis.awslambda = { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };';

describe('function bundles', () => {
  it('exist for every function as index.mjs with a source map', () => {
    const all = bundles();
    // The API, the router, the resync, the hosted extensions, the dispatcher, the watch function, and one reconciler per reconciled kind.
    expect(all).toHaveLength(6 + RECONCILED_KINDS.length);
    for (const { dir } of all) {
      expect(existsSync(join(dir, 'index.mjs')), dir).toBe(true);
      expect(existsSync(join(dir, 'index.mjs.map')), dir).toBe(true);
    }
  });

  it('are ES modules with the require shim and import nothing from outside the bundle', () => {
    for (const { dir } of bundles()) {
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
      expect(code).toContain('__caplessCreateRequire');
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
    }
  });

  it('load in Node and export a handler function', () => {
    const distinct = [...new Map(bundles().map((b) => [b.dir, b])).values()];
    for (const { dir, environment } of distinct) {
      const alone = mkdtempSync(join(tmpdir(), 'capless-bundle-'));
      copyFileSync(join(dir, 'index.mjs'), join(alone, 'index.mjs'));
      const output = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `${LAMBDA_RUNTIME_GLOBAL} const m = await import('./index.mjs'); console.log(typeof m.handler);`],
        { cwd: alone, env: { PATH: process.env.PATH, ...environment }, encoding: 'utf8' },
      );
      rmSync(alone, { recursive: true, force: true });
      expect(output.trim(), dir).toBe('function');
    }
  }, 120_000);
});
