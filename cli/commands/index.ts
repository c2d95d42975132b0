import type { CliCommand } from '../main.js';
import { upCommand } from '../../local/up-command.js';
import { applyCommand } from './apply.js';
import { deleteCommand } from './delete.js';
import { describeCommand } from './describe.js';
import { extensionConfigCommand } from './extension-config.js';
import { getCommand } from './get.js';
import { waitCommand } from './wait.js';

export const COMMANDS: readonly CliCommand[] = [upCommand, applyCommand, getCommand, describeCommand, deleteCommand, waitCommand, extensionConfigCommand];
