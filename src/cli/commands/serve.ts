import { closeOnSignals, startServer } from '../../http/server.js';
import type { CommandTable } from '../command.js';

export const serveCommands: CommandTable = {
  serve: {
    usage:
      'serve [--port 8080] [--host 127.0.0.1] [--data ./data] [--database-url postgres://…] [--log-level info]' +
      '   (or PORT, HOST, SIGHTLINE_DATA, DATABASE_URL, LOG_LEVEL)',
    async run({ config }) {
      const server = await startServer(config);
      closeOnSignals(server, config.shutdownGraceMs);
      server.app.log.info(
        `Sightline listening on ${server.url} (${server.store.dialect}); API docs at ${server.url}/docs`,
      );
      return new Promise<number>(() => {});
    },
  },
};
