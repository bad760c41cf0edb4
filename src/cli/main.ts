// The one `sightline` binary: serve, demo and the admin commands.
import { isUniqueViolation } from '../db/unique-violation.js';
import { UsageError, parseArgs, stringFlag } from './args.js';
import type { Command, CommandContext, CommandTable } from './command.js';
import { offlineCommands } from './commands/offline.js';
import { type CliIo, processIo, withIo } from './io.js';

/** Flags every command takes: output and where the store is (an offline command has no store). */
const GLOBAL_FLAGS = ['json', 'help', 'data', 'database-url', 'log-level'];
const OFFLINE_FLAGS = ['json', 'help'];

/**
 * What a command refuses before it runs: a flag it does not take (a typo such as `--expire-in 90d` must not
 * silently make a token that never expires) and words after the command's name.
 */
function strayInput(
  command: Command,
  name: string,
  words: string[],
  flags: Record<string, unknown>,
): string | undefined {
  const allowed = new Set([
    ...(command.offline ? OFFLINE_FLAGS : GLOBAL_FLAGS),
    ...(command.flags ?? [...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!)),
  ]);
  const unknown = Object.keys(flags).filter((f) => !allowed.has(f));
  if (unknown.length > 0)
    return `unknown flag${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `--${f}`).join(', ')}`;
  const extra = words.slice(name.split(' ').length);
  if (extra.length > 0 && !command.operands)
    return `unexpected argument${extra.length > 1 ? 's' : ''} ${extra.map((w) => `"${w}"`).join(' ')} (values follow their flag: --name value)`;
  return undefined;
}

/**
 * The commands check for duplicates before they write; a second command creating the same name at the same moment
 * can still reach the database's unique constraint first. Its message says so instead of quoting the database.
 */
function messageOf(err: unknown): string {
  if (isUniqueViolation(err))
    return 'it already exists: another command created the same name at the same moment; nothing was changed';
  return (err as Error)?.message ?? String(err);
}

/** The flags every command takes, for --help: they work everywhere but no command's usage line repeats them all. */
const GLOBAL_USAGE =
  'every command also takes: [--data ./data] [--database-url postgres://…] [--log-level <level>] [--json]' +
  '   (or SIGHTLINE_DATA, DATABASE_URL, LOG_LEVEL)';

function usage(commands: CommandTable): string {
  return [
    'usage: sightline <command> [flags]   (add --json for machine-readable output)',
    '',
    ...Object.values(commands).map((c) => `  sightline ${c.usage}`),
    '',
    GLOBAL_USAGE,
    `(${offlineNames(commands).join(', ')} work offline on files: they take --json but no store flags)`,
  ].join('\n');
}

function offlineNames(commands: CommandTable): string[] {
  return Object.entries(commands)
    .filter(([, c]) => c.offline)
    .map(([name]) => name);
}

/**
 * The command table a command line needs. An offline command (one word) loads only its own modules: a whole-process
 * `sightline eval` must not pay for loading the server, the store and their dependencies.
 */
async function commandTable(words: string[]): Promise<CommandTable> {
  if (words.length > 0 && Object.hasOwn(offlineCommands, words[0]!)) return offlineCommands[words[0]!]!();
  return (await import('./commands/index.js')).commands;
}

/** Runs one command line; its exit code. `io` defaults to the process's stdout, stderr and environment. */
export function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  return withIo(io, () => run(argv, io));
}

async function run(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    io.stderr.write(`sightline: ${(err as Error).message}\n`);
    return 2;
  }
  const { words, flags } = parsed;
  const commands = await commandTable(words);
  const name = [3, 2, 1].map((n) => words.slice(0, n).join(' ')).find((key) => key in commands);
  if (flags.help === true) {
    const command = name ? commands[name]! : undefined;
    const text = command
      ? `usage: sightline ${command.usage}${command.offline ? '' : `\n${GLOBAL_USAGE}`}`
      : usage(commands);
    io.stdout.write(`${text}\n`);
    return 0;
  }
  if (!name) {
    if (words.length > 0) io.stderr.write(`sightline: unknown command "${words.join(' ')}"\n\n`);
    io.stderr.write(`${usage(commands)}\n`);
    return words.length === 0 ? 0 : 2;
  }
  const command = commands[name]!;
  const stray = strayInput(command, name, words, flags);
  if (stray) {
    io.stderr.write(`sightline ${name}: ${stray}\nusage: sightline ${command.usage}\n`);
    return 2;
  }
  try {
    const operands = words.slice(name.split(' ').length);
    if (command.offline) return await command.run({ flags, operands, json: flags.json === true, io });
    // Given once, and not empty: `--database-url "$PROD_URL"` with the variable unset must not quietly fall back to
    // a local store. A wrong value here is the command line's (exit 2), one in the environment is not.
    const given = Object.fromEntries(
      ['port', 'host', 'data', 'database-url', 'log-level'].map((f) => [f, stringFlag(flags, f)]),
    );
    const { loadConfig } = await import('../config.js');
    const { migrateToLatest, migrationStatus } = await import('../db/migrate.js');
    const { openStore } = await import('../db/store.js');
    try {
      loadConfig(given, {});
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const config = loadConfig(given, io.env, { logLevel: command.defaultLogLevel });
    const ctx: CommandContext = {
      flags,
      operands,
      json: flags.json === true,
      config,
      io,
      async withStore(fn) {
        const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
        try {
          // A new store is set up; an existing one behind this version is left to `sightline migrate`.
          const { applied, pending } = await migrationStatus(store);
          if (applied.length > 0 && pending.length > 0) {
            throw new Error(
              `this store needs the migration${pending.length > 1 ? 's' : ''} ${pending.join(', ')} of this newer Sightline: ` +
                'run `sightline migrate` first (see "Upgrading" in the README)',
            );
          }
          await migrateToLatest(store);
          return await fn(store);
        } finally {
          await store.close();
        }
      },
    };
    const code = await command.run(ctx);
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    // The usage line only where it helps: a wrong flag, not a missing organisation or an unreachable database.
    if (err instanceof UsageError) {
      io.stderr.write(`sightline ${name}: ${messageOf(err)}\nusage: sightline ${command.usage}\n`);
      return 2;
    }
    io.stderr.write(`sightline ${name}: ${messageOf(err)}\n`);
    return 1;
  }
}
