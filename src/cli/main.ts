// The one `sightline` binary: serve, demo and the admin commands.
import { loadConfig } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { openStore } from '../db/store.js';
import { parseArgs } from './args.js';
import type { CommandContext } from './command.js';
import { commands } from './commands/index.js';

function usage(): string {
  return ['usage: sightline <command> [flags]   (add --json for machine-readable output)', '',
    ...Object.values(commands).map((c) => `  sightline ${c.usage}`)].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`sightline: ${(err as Error).message}\n`);
    return 2;
  }
  const { words, flags } = parsed;
  const name = [3, 2, 1].map((n) => words.slice(0, n).join(' ')).find((key) => key in commands);
  if (!name || flags.help === true) {
    if (words.length > 0 && !name) process.stderr.write(`sightline: unknown command "${words.join(' ')}"\n\n`);
    process.stderr.write(`${usage()}\n`);
    return name || words.length === 0 ? 0 : 2;
  }
  const command = commands[name]!;
  try {
    const config = loadConfig({
      port: flags.port as string, host: flags.host as string, data: flags.data as string,
      'database-url': flags['database-url'] as string, 'log-level': flags['log-level'] as string,
    });
    const ctx: CommandContext = {
      flags, json: flags.json === true, config,
      async withStore(fn) {
        const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
        try {
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
    process.stderr.write(`sightline ${name}: ${(err as Error).message}\nusage: sightline ${command.usage}\n`);
    return 1;
  }
}
