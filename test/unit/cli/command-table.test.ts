import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../cli/commands/index.js';

/** The lazy command table names each command as its module does, so `capless --help` and the command agree. */
describe('the lazy command table', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s loads the command of that name and summary', async (name, entry) => {
    const command = await entry.load();
    expect(command.name).toBe(name);
    expect(command.summary).toBe(entry.summary);
    // `up` pulls in the whole control plane, which vitest transforms on first import.
  }, 60_000);
});
