// sightline admin recording create|list|import, admin sweep
import { insertRecording, listRecordings } from '../../recordings/queries.js';
import { startFromMediaKey } from '../../recordings/media-key.js';
import { MAX_START_SECONDS, validateRecordingBody } from '../../recordings/validate.js';
import { ApiError } from '../../http/problem.js';
import { importFromProvider } from '../../storage/import-recordings.js';
import { sweepExpired } from '../../retention/sweeper.js';
import { UsageError, numberFlag, stringFlag } from '../args.js';
import type { CommandTable } from '../command.js';
import { printResult } from '../output.js';
import { requireOrganisation } from './admin-auth.js';

const FLAG_OF: Record<string, string> = {
  mediaKey: 'media-key',
  analysisId: 'analysis-id',
  startTimestamp: 'start',
  width: 'width',
  height: 'height',
  fps: 'fps',
  frameCount: 'frame-count',
  deviceKey: 'device',
  provider: 'provider',
};

/** An API field error, said in the CLI's words: the flag, not the JSON field. */
function asFlags<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const field = String(err.extensions.field ?? '');
    const flag = FLAG_OF[field];
    throw new UsageError(flag ? `--${flag}: ${err.message.replace(new RegExp(`^${field}\\b ?`), '')}` : err.message);
  }
}

export const recordingCommands: CommandTable = {
  'admin recording create': {
    usage:
      'admin recording create --org <name> --media-key <key> [--analysis-id <id>] [--start <unixSeconds>] [--width N --height N --fps N --frame-count N] [--device <key>] [--provider <name>]',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const given = numberFlag(flags, 'start', { integer: true, min: 0 });
      if (given !== undefined && given > MAX_START_SECONDS) {
        throw new UsageError(
          given >= 1e12
            ? `--start is Unix seconds; ${given} looks like milliseconds (seconds: ${Math.floor(given / 1000)})`
            : `--start is Unix seconds up to ${MAX_START_SECONDS} (year 9999); got ${given}`,
        );
      }
      const mediaKey = stringFlag(flags, 'media-key', true);
      // The same checks as POST /recordings, so that the CLI cannot register what the API refuses; only the start
      // may also default to now (the issue's rule for the CLI).
      const input = asFlags(() =>
        validateRecordingBody({
          mediaKey,
          analysisId: stringFlag(flags, 'analysis-id'),
          startTimestamp:
            given ?? (startFromMediaKey(mediaKey) === undefined ? Math.floor(Date.now() / 1000) : undefined),
          width: numberFlag(flags, 'width'),
          height: numberFlag(flags, 'height'),
          fps: numberFlag(flags, 'fps'),
          frameCount: numberFlag(flags, 'frame-count'),
          deviceKey: stringFlag(flags, 'device'),
          provider: stringFlag(flags, 'provider'),
        }),
      );
      const recording = await withStore(async ({ db }) => {
        const org = await requireOrganisation(db, orgName);
        const existing = await db
          .selectFrom('recordings')
          .select('id')
          .where('org_id', '=', org.id)
          .where('media_key', '=', input.mediaKey)
          .executeTakeFirst();
        if (existing) throw new Error(`a recording with media key "${input.mediaKey}" already exists in ${orgName}`);
        if (input.analysisId) {
          const taken = await db
            .selectFrom('recordings')
            .select('id')
            .where('analysis_id', '=', input.analysisId)
            .executeTakeFirst();
          if (taken) throw new Error(`the analysis id "${input.analysisId}" is already used`);
        }
        return insertRecording(db, org.id, { ...input, startFromKey: undefined });
      });
      printResult(
        json,
        {
          id: recording.id,
          mediaKey: recording.mediaKey,
          analysisId: recording.analysisId,
          startTimestamp: recording.startTimestamp,
        },
        `recording ${recording.mediaKey} created (id ${recording.id}, analysis ${recording.analysisId}, start ${new Date(recording.startTimestamp * 1000).toISOString()})`,
      );
    },
  },
  'admin recording list': {
    usage: 'admin recording list --org <name>',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const recordings = await withStore(async ({ db }) =>
        listRecordings(db, (await requireOrganisation(db, orgName)).id),
      );
      const view = recordings.map((r) => ({
        id: r.id,
        mediaKey: r.mediaKey,
        analysisId: r.analysisId,
        startTimestamp: r.startTimestamp,
        deviceKey: r.deviceKey,
      }));
      printResult(
        json,
        { recordings: view },
        view.length === 0
          ? `no recordings in ${orgName}`
          : view
              .map(
                (r) =>
                  `${r.mediaKey}  analysis=${r.analysisId}  start=${new Date(r.startTimestamp * 1000).toISOString()}`,
              )
              .join('\n'),
      );
    },
  },
  'admin recording import': {
    usage:
      'admin recording import --org <name> --provider <name> [--prefix <dir>]   (registers every .mp4 of an fs provider, not *_redacted.mp4)',
    async run({ flags, json, withStore, config, io }) {
      const orgName = stringFlag(flags, 'org', true);
      const provider = stringFlag(flags, 'provider', true);
      const prefix = stringFlag(flags, 'prefix');
      const tty = io.stderr.isTTY === true && !json;
      let last = 0;
      const progress = (done: number, total: number) => {
        const now = Date.now();
        if (!tty || (done < total && now - last < 100)) return;
        last = now;
        const width = 30;
        const filled = Math.round((done / Math.max(1, total)) * width);
        io.stderr.write(
          `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`,
        );
      };
      const summary = await withStore(async (store) => {
        const org = await requireOrganisation(store.db, orgName);
        return importFromProvider(store, config, org.id, provider, prefix, progress);
      });
      const failures = summary.failures
        .slice(0, 20)
        .map((f) => `\n  failed: ${f.key} (${f.reason})`)
        .join('');
      printResult(
        json,
        summary,
        `imported from ${provider}${prefix ? `/${prefix}` : ''}: ${summary.found} recording files, ${summary.created} registered, ${summary.existing} already registered, ${summary.failed} failed${failures}`,
      );
      return summary.failed > 0 ? 1 : 0;
    },
  },
  'admin sweep': {
    usage:
      'admin sweep [--dry-run] [--keep-recordings] [--batch-size 500]   (removes runs, centroids and recordings past their retention)',
    async run({ flags, json, withStore }) {
      const batchSize = numberFlag(flags, 'batch-size', { integer: true, min: 1 });
      const dryRun = flags['dry-run'] === true;
      const lines: string[] = [];
      const started = Date.now();
      const result = await withStore((store) =>
        sweepExpired(store, {
          dryRun,
          batchSize,
          keepRecordings: flags['keep-recordings'] === true,
          log: (fields, message) => {
            if (!json)
              lines.push(
                `${message}: ${fields.organisation}: ${fields.runs} runs, ${fields.recordings} recordings${fields.mediaKeys ? ` (${(fields.mediaKeys as string[]).join(', ')}${fields.more ? ` and ${fields.more} more` : ''})` : ''}`,
              );
          },
        }),
      );
      const ms = Date.now() - started;
      printResult(
        json,
        { ...result, ms },
        [
          ...lines,
          `${dryRun ? 'dry run: would remove' : 'removed'} ${result.runsRemoved} runs and ${result.recordingsRemoved} recordings` +
            `${result.recordingsEmptied ? ` (${result.recordingsEmptied} recordings kept without runs)` : ''}` +
            `${dryRun ? '' : `, ${result.sessionsRemoved} expired sessions, ${result.loginCountersRemoved} stale login counters`} in ${ms} ms`,
        ].join('\n'),
      );
    },
  },
};
