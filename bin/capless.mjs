#!/usr/bin/env node
// The `capless` command. The TypeScript sources are bundled on first use (bin/cli-bundle.mjs), so
// no build step is needed and later starts load only the command that runs.
import { loadCli } from './cli-bundle.mjs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { main } = await loadCli();
// Exit explicitly: a stopped control plane must not linger on a forgotten handle.
process.exit(await main(process.argv.slice(2)));
