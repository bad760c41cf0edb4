// The SQLite store's WAL checkpointer inside a server: started once the app is ready, stopped (its last checkpoint
// done) when the app closes, after the listener has closed and before the store does.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';

export const walCheckpointerPlugin = fp(
  async (app: FastifyInstance) => {
    let checkpointer: WalCheckpointer | undefined;
    app.addHook('onReady', async () => {
      const sqlite = app.store.sqlite;
      if (!sqlite) return;
      checkpointer = startWalCheckpointer(sqlite, {
        onReport({ failure, previous }) {
          if (failure)
            app.log.error({ reason: failure }, 'WAL checkpoint failed: the WAL file grows until it succeeds');
          else app.log.info({ previous }, 'WAL checkpoints succeed again');
        },
      });
    });
    app.addHook('onClose', async () => {
      await checkpointer?.stop();
    });
  },
  { name: 'sightline-wal-checkpointer', fastify: '5.x' },
);
