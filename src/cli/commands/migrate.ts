// sightline migrate: the one command that upgrades an existing store's schema besides serve and demo, so that an
// upgrade happens when the operator says so (after a backup, with older instances drained when the release needs
// it), not as a side effect of an admin command run with the new version.
import { migrateToLatest, migrationStatus } from '../../db/migrate.js';
import { openStore } from '../../db/store.js';
import type { CommandTable } from '../command.js';
import { printResult } from '../output.js';

export const migrateCommands: CommandTable = {
  migrate: {
    usage:
      'migrate [--data ./data] [--database-url postgres://…] [--dry-run]   (applies the pending schema migrations)',
    async run({ flags, json, config }) {
      const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
      try {
        const before = await migrationStatus(store);
        const applied = flags['dry-run'] === true ? [] : await migrateToLatest(store);
        const pending = flags['dry-run'] === true ? before.pending : [];
        const line =
          flags['dry-run'] === true
            ? pending.length > 0
              ? `would apply: ${pending.join(', ')}`
              : 'the store is up to date'
            : applied.length > 0
              ? `applied: ${applied.join(', ')}`
              : 'the store is up to date';
        printResult(json, { applied, pending }, line);
      } finally {
        await store.close();
      }
    },
  },
};
