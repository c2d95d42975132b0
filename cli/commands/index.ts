import type { CliCommand } from '../main.js';
import { upCommand } from '../../local/up-command.js';

export const COMMANDS: readonly CliCommand[] = [upCommand];
