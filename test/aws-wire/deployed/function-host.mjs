// One Lambda execution environment for the deployed-stack runtime: loads a function's bundled
// handler from its unpacked code (LAMBDA_TASK_ROOT, _HANDLER = "<module>.<export>") once, as the
// Node.js runtime does at init, then runs the invocations the parent sends over IPC one at a time
// and answers each with the handler's result or its error ({ errorType, errorMessage }, the shape
// Lambda reports). Plain JavaScript on purpose: nothing of the repository is loaded here, only
// the bundle.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const taskRoot = process.env.LAMBDA_TASK_ROOT ?? '';
const [moduleName, exportName] = (process.env._HANDLER ?? 'index.handler').split('.');

function errorShape(error, fallbackType) {
  if (error instanceof Error) return { errorType: error.name || fallbackType, errorMessage: error.message, trace: (error.stack ?? '').split('\n') };
  return { errorType: fallbackType, errorMessage: String(error), trace: [] };
}

async function init() {
  const file = ['.mjs', '.js', '.cjs'].map((ext) => join(taskRoot, `${moduleName}${ext}`)).find((path) => existsSync(path));
  if (!file) throw Object.assign(new Error(`Cannot find module '${moduleName}' in ${taskRoot}`), { name: 'Runtime.ImportModuleError' });
  const loaded = await import(pathToFileURL(file).href);
  const handler = loaded[exportName];
  if (typeof handler !== 'function') throw Object.assign(new Error(`${moduleName}.${exportName} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
  return handler;
}

const ready = init().then(
  (handler) => ({ handler }),
  (error) => ({ initError: errorShape(error, 'Runtime.ImportModuleError') }),
);

let chain = Promise.resolve();
process.on('message', (message) => {
  chain = chain.then(() => invoke(message));
});

async function invoke({ id, event, requestId, deadlineMs }) {
  const loaded = await ready;
  if (loaded.initError) {
    process.send?.({ id, ok: false, error: loaded.initError });
    return;
  }
  const name = process.env.AWS_LAMBDA_FUNCTION_NAME ?? '';
  const context = {
    functionName: name,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION ?? '$LATEST',
    invokedFunctionArn: process.env.CAPLESS_FUNCTION_ARN ?? '',
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '128',
    awsRequestId: requestId,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME ?? '',
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME ?? '',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadlineMs - Date.now()),
  };
  try {
    const result = await loaded.handler(event, context);
    process.send?.({ id, ok: true, result: result === undefined ? null : result });
  } catch (error) {
    process.send?.({ id, ok: false, error: errorShape(error, 'Error') });
  }
}
