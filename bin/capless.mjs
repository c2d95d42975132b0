#!/usr/bin/env node
// The `capless` command. Runs the TypeScript entry point through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { main } = await import('../cli/main.ts');
// Exit explicitly: a stopped control plane must not linger on a forgotten handle.
process.exit(await main(process.argv.slice(2)));
