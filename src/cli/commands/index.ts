// Every CLI command, by its words. Each domain adds its own table here.
import type { CommandTable } from '../command.js';
import { authCommands } from './admin-auth.js';
import { convertCommands } from './convert.js';
import { recordingCommands } from './admin-recordings.js';
import { demoCommands } from './demo.js';
import { evalCommands } from './eval.js';
import { migrateCommands } from './migrate.js';
import { serveCommands } from './serve.js';
import { storageCommands } from './admin-storage.js';

export const commands: CommandTable = {
  ...serveCommands,
  ...demoCommands,
  ...migrateCommands,
  ...authCommands,
  ...recordingCommands,
  ...storageCommands,
  ...evalCommands,
  ...convertCommands,
};
