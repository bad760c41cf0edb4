// A store opened in a benchmark's child process from the location its parent gives as JSON (TestStore.location).
import { openStore, type Store } from '../src/db/store.js';

export function storeAt(location: string): Store {
  const { dataDir, databaseUrl, pgSchema } = JSON.parse(location) as {
    dataDir: string;
    databaseUrl?: string;
    pgSchema?: string;
  };
  return openStore(databaseUrl ? { dataDir, databaseUrl, pgSchema } : { dataDir });
}
