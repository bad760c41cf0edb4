// The commands that work on files alone. main loads this table by itself for them, not the whole command set.
import type { CommandTable } from '../command.js';
import { convertCommands } from './convert.js';
import { evalCommands } from './eval.js';

export const offlineCommands: CommandTable = { ...evalCommands, ...convertCommands };
