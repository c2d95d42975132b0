#!/usr/bin/env node
// The `capless` command. Runs the TypeScript entry point through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
