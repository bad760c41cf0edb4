// The commands that work on files alone, each loaded by itself: a whole-process `sightline eval` must not pay for
// loading the server, the store, or another command's dependencies (the format writers of `convert`, say).
import type { CommandTable } from '../command.js';

export const offlineCommands: Record<string, () => Promise<CommandTable>> = {
  eval: async () => (await import('./eval.js')).evalCommands,
  convert: async () => (await import('./convert.js')).convertCommands,
};
