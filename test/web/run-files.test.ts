// The editor's list of file formats is the server's: every format the server exports can be picked, each sent
// with a content type the import takes.
import { describe, expect, it } from 'vitest';
import { IMPORT_CONTENT_TYPES } from '../../src/detections/format-routes.js';
import { formatNames } from '../../src/formats/registry.js';
import { FILE_FORMATS, guessFormat, positionText } from '../../src/web/run-files.js';

describe('the editor file formats', () => {
  it('are the formats of the server, each with a content type its import takes', () => {
    expect(FILE_FORMATS.map((f) => f.name)).toEqual([...formatNames]);
    for (const f of FILE_FORMATS) expect(IMPORT_CONTENT_TYPES[f.name]).toContain(f.type);
  });

  it('guess a format from the file name, and name rejection positions', () => {
    expect(['gt.txt', 'a.xml', 'b.zip', 'c.csv', 'd.json'].map(guessFormat)).toEqual([
      'mot',
      'cvat-video',
      'yolo',
      'supervision-csv',
      'coco',
    ]);
    const r = { trackId: null, frame: null, reason: 'row_malformed' };
    expect(positionText({ ...r, line: 3 })).toBe('line 3');
    expect(positionText({ ...r, element: 'track[1]/box[2]' })).toBe('track[1]/box[2]');
    expect(positionText({ ...r, index: 0 })).toBe('annotation 0');
    expect(positionText({ ...r, entry: 'labels/x_1.txt:4' })).toBe('labels/x_1.txt:4');
  });
});
