import { COMMANDS } from './commands/index.js';

export interface CliCommand {
  /** e.g. `up`, `apply`, `get`. */
  name: string;
  summary: string;
  /** Returns the process exit code. */
  run(args: string[]): Promise<number>;
}

/** Entry point of the `capless` CLI: dispatches to a command, prints usage otherwise. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(usage());
    return name === undefined || name === 'help' || name === '--help' ? 0 : 2;
  }
  try {
    return await (await command.load()).run(rest);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`);
  return `capless — Cluster API without a management cluster\n\nUsage: capless <command> [flags]\n\nCommands:\n${lines.join('\n')}\n`;
}
