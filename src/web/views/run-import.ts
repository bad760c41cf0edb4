// "Import" on a recording: a file of another tool posted to POST /detections/import, and the answer shown as it
// came: the status, what was stored, the warnings, and every rejection with its place in the file.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { ApiProblem, inWords } from '../api.js';
import {
  FILE_FORMATS,
  guessFormat,
  importFile,
  positionText,
  type FileFormatName,
  type ImportAnswer,
  type ImportRejection,
} from '../run-files.js';
import { userText } from '../user-text.js';

export interface RunImportProps {
  token: string;
  mediaKey: string;
  /** A run was stored: the layers should be read again. */
  onImported: (runId: string) => void;
}

/** Rejections shown at once; the rest are counted (a bad file can have millions). */
const SHOWN = 200;

export function RunImport(props: RunImportProps) {
  const [file, setFile] = useState<File | undefined>();
  const [format, setFormat] = useState<FileFormatName>('mot');
  const [flavor, setFlavor] = useState<'results' | 'gt'>('results');
  const [filled, setFilled] = useState(false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<ImportAnswer | undefined>();
  const [failure, setFailure] = useState<{ text: string; rejected: ImportRejection[]; where?: string } | undefined>();

  const run = async () => {
    if (!file) return;
    setBusy(true);
    setAnswer(undefined);
    setFailure(undefined);
    try {
      const query: Record<string, string> = { format, mediaKey: props.mediaKey };
      if (format === 'mot') query.flavor = flavor;
      if (filled) query.interpolate = 'true';
      const result = await importFile(props.token, file, query);
      if (result instanceof ApiProblem) {
        const body = result.body as Record<string, unknown>;
        const where = positionText(body as unknown as ImportRejection);
        setFailure({
          text: `${result.status} ${result.code}: ${inWords(result)}`,
          rejected: Array.isArray(body.rejected) ? (body.rejected as ImportRejection[]) : [],
          ...(where ? { where } : {}),
        });
      } else {
        setAnswer(result);
        props.onImported(result.runId);
      }
    } catch (err) {
      setFailure({ text: inWords(err), rejected: [] });
    } finally {
      setBusy(false);
    }
  };

  const rejectedList = (rejected: ImportRejection[]) =>
    rejected.length === 0
      ? null
      : h(
          'div',
          { class: 'import-rejections' },
          h('h4', null, `Rejected (${rejected.length})`),
          h(
            'ol',
            null,
            rejected
              .slice(0, SHOWN)
              .map((r, i) =>
                h(
                  'li',
                  { key: i, 'data-reason': r.reason },
                  h('code', null, positionText(r)),
                  ` ${r.reason}`,
                  r.trackId !== null ? ` · track ${r.trackId}` : '',
                  r.frame !== null ? ` · frame ${r.frame}` : '',
                  r.detail ? h('span', { class: 'muted' }, ` — `, userText(r.detail)) : null,
                ),
              ),
          ),
          rejected.length > SHOWN ? h('p', { class: 'muted small' }, `… and ${rejected.length - SHOWN} more.`) : null,
        );

  return h(
    'details',
    { class: 'run-import' },
    h('summary', null, 'Import a run from a file'),
    h(
      'label',
      { class: 'control' },
      'File',
      h('input', {
        type: 'file',
        class: 'import-file',
        accept: [...new Set(FILE_FORMATS.flatMap((f) => f.accept.split(',')))].join(','),
        onChange: (e: Event) => {
          const chosen = (e.target as HTMLInputElement).files?.[0];
          setFile(chosen);
          if (chosen) setFormat(guessFormat(chosen.name));
        },
      }),
    ),
    h(
      'label',
      { class: 'control' },
      'Format',
      h(
        'select',
        {
          class: 'import-format',
          value: format,
          onChange: (e: Event) => setFormat((e.target as HTMLSelectElement).value as FileFormatName),
        },
        FILE_FORMATS.map((f) => h('option', { value: f.name, key: f.name }, f.label)),
      ),
    ),
    format === 'mot'
      ? h(
          'label',
          { class: 'control' },
          'MOT columns',
          h(
            'select',
            {
              class: 'import-flavor',
              value: flavor,
              onChange: (e: Event) => setFlavor((e.target as HTMLSelectElement).value as 'results' | 'gt'),
            },
            h('option', { value: 'results' }, 'tracker results'),
            h('option', { value: 'gt' }, 'ground truth'),
          ),
        )
      : null,
    h(
      'label',
      { class: 'control' },
      h('input', {
        type: 'checkbox',
        class: 'import-interpolate',
        checked: filled,
        onChange: (e: Event) => setFilled((e.target as HTMLInputElement).checked),
      }),
      'Fill the frames between keyframes',
    ),
    h(
      'button',
      { class: 'import-run', disabled: !file || busy, onClick: () => void run() },
      busy ? 'Importing…' : 'Import',
    ),
    answer
      ? h(
          'div',
          { class: 'import-answer', role: 'status', 'data-status': String(answer.status) },
          h(
            'p',
            null,
            `${answer.status} · run `,
            h('code', null, userText(answer.runId)),
            ` · ${answer.tracksStored} tracks, ${answer.boxesStored} boxes stored`,
          ),
          answer.warnings.length > 0
            ? h(
                'ul',
                { class: 'import-warnings' },
                answer.warnings.map((w) => h('li', { key: w.code }, `${w.code} (${w.count}): `, userText(w.message))),
              )
            : null,
          rejectedList(answer.rejected),
        )
      : null,
    failure
      ? h(
          'div',
          { class: 'import-answer error', role: 'alert' },
          h('p', null, failure.text, failure.where ? ` (at ${failure.where})` : ''),
          rejectedList(failure.rejected),
        )
      : null,
  );
}
