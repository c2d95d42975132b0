/**
 * Runs one amplifying JSON Patch against a fresh hostile API in its own process, so a handler
 * that expands it without bound runs out of this process's heap (or is killed on timeout)
 * instead of taking the test runner down. Prints one JSON line: status, body head, milliseconds.
 *
 *   node --import tsx --max-old-space-size=512 test/support/hostile/amplify-child.ts <object|array|linear> <copies>
 */
import { amplification } from './families-patches.js';
import { startHostileApi } from './api.js';
import { hostile } from './model.js';

const shape = (process.argv[2] ?? 'object') as 'object' | 'array' | 'linear';
const copies = Number(process.argv[3] ?? 24);
const api = await startHostileApi();
const body = JSON.stringify(amplification(copies, shape));
const started = Date.now();
const response = await api.send(
  hostile({ family: 'amplification', caller: 'admin', method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/c', query: 'dryRun=All', contentType: 'application/json-patch+json', body }),
);
process.stdout.write(`${JSON.stringify({ bodyBytes: body.length, status: response.status, body: response.body.slice(0, 400), ms: Date.now() - started })}\n`);
await api.close();
