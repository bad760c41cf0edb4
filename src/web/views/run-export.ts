// "Export" on a layer: a format, whether to fill the frames between boxes, and the file downloaded from
// GET /detections/{runId}/export with the session's token.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { inWords } from '../api.js';
import { downloadExport, FILE_FORMATS, type FileFormatName } from '../run-files.js';

export interface RunExportProps {
  token: string;
  runId: string;
  mediaKey: string;
  /** The layer's name for screen readers. */
  name: string;
}

export function RunExport(props: RunExportProps) {
  const [format, setFormat] = useState<FileFormatName>('cvat-video');
  const [filled, setFilled] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | undefined>();

  const run = async () => {
    setBusy(true);
    setNote(undefined);
    try {
      const query: Record<string, string> = { format, mediaKey: props.mediaKey };
      if (filled) query.interpolate = 'true';
      const file = await downloadExport(props.token, props.runId, query);
      setNote(`Saved ${file.name} (${file.bytes.toLocaleString('en')} bytes).`);
    } catch (err) {
      setNote(inWords(err));
    } finally {
      setBusy(false);
    }
  };

  return h(
    'details',
    { class: 'run-export' },
    h('summary', null, 'Export'),
    h(
      'label',
      { class: 'control' },
      'Format',
      h(
        'select',
        {
          class: 'export-format',
          'aria-label': `Export format of ${props.name}`,
          value: format,
          onChange: (e: Event) => setFormat((e.target as HTMLSelectElement).value as FileFormatName),
        },
        FILE_FORMATS.map((f) => h('option', { value: f.name, key: f.name }, f.label)),
      ),
    ),
    h(
      'label',
      { class: 'control' },
      h('input', {
        type: 'checkbox',
        class: 'export-interpolate',
        checked: filled,
        onChange: (e: Event) => setFilled((e.target as HTMLInputElement).checked),
      }),
      'Fill the frames between boxes',
    ),
    h(
      'button',
      { class: 'export-run', disabled: busy, onClick: () => void run(), 'aria-label': `Export ${props.name}` },
      busy ? 'Exporting…' : 'Download',
    ),
    note ? h('p', { class: 'muted small export-note', role: 'status' }, note) : null,
  );
}
