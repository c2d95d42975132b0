import type { CliCommand } from '../main.js';
import { upCommand } from '../../local/up-command.js';
import { applyCommand } from './apply.js';
import { deleteCommand } from './delete.js';
import { describeCommand } from './describe.js';
import { getCommand } from './get.js';
import { initCommand } from './init.js';
import { upgradeCommand } from './upgrade.js';
import { waitCommand } from './wait.js';

export const COMMANDS: readonly CliCommand[] = [upCommand, applyCommand, getCommand, describeCommand, deleteCommand, waitCommand, initCommand, upgradeCommand];
