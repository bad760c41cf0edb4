// sightline admin recording create|list
import { insertRecording, listRecordings } from '../../recordings/queries.js';
import { startFromMediaKey } from '../../recordings/media-key.js';
import { numberFlag, stringFlag } from '../args.js';
import type { CommandTable } from '../command.js';
import { printResult } from '../output.js';
import { requireOrganisation } from './admin-auth.js';

export const recordingCommands: CommandTable = {
  'admin recording create': {
    usage: 'admin recording create --org <name> --media-key <key> [--analysis-id <id>] [--start <unixSeconds>] [--width N --height N --fps N --frame-count N] [--device <key>] [--provider <name>]',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const mediaKey = stringFlag(flags, 'media-key', true);
      const start = numberFlag(flags, 'start', { integer: true, min: 0 }) ?? startFromMediaKey(mediaKey) ?? Math.floor(Date.now() / 1000);
      const recording = await withStore(async ({ db }) => {
        const org = await requireOrganisation(db, orgName);
        const existing = await db.selectFrom('recordings').select('id').where('org_id', '=', org.id).where('media_key', '=', mediaKey).executeTakeFirst();
        if (existing) throw new Error(`a recording with media key "${mediaKey}" already exists in ${orgName}`);
        const analysisId = stringFlag(flags, 'analysis-id');
        if (analysisId) {
          const taken = await db.selectFrom('recordings').select('id').where('analysis_id', '=', analysisId).executeTakeFirst();
          if (taken) throw new Error(`the analysis id "${analysisId}" is already used`);
        }
        return insertRecording(db, org.id, {
          mediaKey, analysisId, startTimestamp: start,
          width: numberFlag(flags, 'width', { min: 1 }), height: numberFlag(flags, 'height', { min: 1 }),
          fps: numberFlag(flags, 'fps', { min: 0.001 }), frameCount: numberFlag(flags, 'frame-count', { integer: true, min: 0 }),
          deviceKey: stringFlag(flags, 'device'), provider: stringFlag(flags, 'provider'),
        });
      });
      printResult(json, { id: recording.id, mediaKey: recording.mediaKey, analysisId: recording.analysisId, startTimestamp: recording.startTimestamp },
        `recording ${recording.mediaKey} created (id ${recording.id}, analysis ${recording.analysisId}, start ${new Date(recording.startTimestamp * 1000).toISOString()})`);
    },
  },
  'admin recording list': {
    usage: 'admin recording list --org <name>',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const recordings = await withStore(async ({ db }) => listRecordings(db, (await requireOrganisation(db, orgName)).id));
      const view = recordings.map((r) => ({ id: r.id, mediaKey: r.mediaKey, analysisId: r.analysisId, startTimestamp: r.startTimestamp, deviceKey: r.deviceKey }));
      printResult(json, { recordings: view },
        view.length === 0 ? `no recordings in ${orgName}` : view.map((r) => `${r.mediaKey}  analysis=${r.analysisId}  start=${new Date(r.startTimestamp * 1000).toISOString()}`).join('\n'));
    },
  },
};
