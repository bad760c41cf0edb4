import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { FlagValue } from './args.js';
import type { CliIo } from './io.js';

/** What every command is given; an offline command (one that reads files only, as `eval`) is given no more. */
export interface OfflineContext {
  flags: Record<string, FlagValue>;
  /** The words after the command's name: only for a command that takes `operands`. */
  operands: string[];
  json: boolean;
  /** Where the command writes and what environment it reads (the process's, unless main was given another). */
  io: CliIo;
}

export interface CommandContext extends OfflineContext {
  config: Config;
  /** Opens the configured store (migrated), runs fn, closes it. */
  withStore<T>(fn: (store: Store) => Promise<T>): Promise<T>;
}

interface CommandBase {
  usage: string;
  /** The flags it takes, when not exactly the `--flags` its usage names (besides the global ones). */
  flags?: readonly string[];
  /** It takes words after its name (files to read): otherwise they are refused as stray input. */
  operands?: boolean;
}

/**
 * A command that needs neither configuration nor a store: main reads no settings for it (a broken DATABASE_URL in
 * the environment does not stop it) and it takes no store flags.
 */
export interface OfflineCommand extends CommandBase {
  offline: true;
  run(ctx: OfflineContext): Promise<number>;
}

export interface StoreCommand extends CommandBase {
  offline?: false;
  /** Log level when neither --log-level nor LOG_LEVEL is given (the service's default is info). */
  defaultLogLevel?: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: a command that returns nothing has succeeded (exit code 0)
  run(ctx: CommandContext): Promise<number | void>;
}

export type Command = StoreCommand | OfflineCommand;
export type CommandTable = Record<string, Command>;
