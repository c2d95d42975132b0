import type { CliCommand } from '../main.js';
import { ApiStatusError } from '../client/api-status-error.js';
import { type CliIo, processIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

/** A command that can also run against an injected CliIo (tests). */
export interface IoCommand extends CliCommand {
  runWith(args: string[], io: CliIo): Promise<number>;
}

/**
 * Wraps a command body: server errors print like kubectl (`Error from server (NotFound): …`,
 * exit 1), usage errors exit 2.
 */
export function defineCommand(name: string, summary: string, body: (args: string[], io: CliIo) => Promise<number>): IoCommand {
  const runWith = async (args: string[], io: CliIo): Promise<number> => {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout.write(`capless ${name}: ${summary}\n`);
      return 0;
    }
    try {
      return await body(args, io);
    } catch (error) {
      if (error instanceof ApiStatusError) {
        io.stderr.write(`Error from server (${error.reason}): ${error.message}\n`);
        return 1;
      }
      if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
        io.stderr.write(`error: ${error.message}\nSee 'capless ${name} --help'.\n`);
        return 2;
      }
      throw error;
    }
  };
  return { name, summary, run: (args) => runWith(args, processIo), runWith };
}
