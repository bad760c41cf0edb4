// The comparison panel: pick the ground-truth layer and a prediction layer, score them in the browser, and show
// HOTA, MOTA, IDF1, AP and AP50 for the recording, the identity switches (click to seek) and every figure a click
// away. The editor draws the boxes and the timeline from what this panel hands it.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { CompareOutput } from '../compare/comparison.js';
import type { ActiveComparison } from '../compare/draw.js';
import { runComparison } from '../compare/run-comparison.js';
import { type Layer, layerName } from '../editor/layers.js';
import type { RecordingInfo } from '../types.js';
import { userTextPlain } from '../user-text.js';

export interface ComparePanelProps {
  layers: Layer[];
  recording: RecordingInfo;
  active: ActiveComparison | undefined;
  /** The comparison to draw, or undefined to leave comparison mode. */
  onActive: (active: ActiveComparison | undefined) => void;
  onSeek: (frame: number) => void;
}

export const HEADLINE = ['HOTA', 'MOTA', 'IDF1', 'AP', 'AP50'] as const;

const figure = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(4)) : '—');
const label = (l: Layer) => userTextPlain(`${layerName(l.run)} (${l.runId})`);

/** The ground-truth layer a user most likely means: a run from a person or named like ground truth, else the first. */
function likelyGroundTruth(layers: readonly Layer[]): Layer | undefined {
  return (
    layers.find((l) => /ground|truth|\bgt\b|annotat/i.test(`${l.run.source.name ?? ''} ${l.run.source.kind ?? ''}`)) ??
    layers[0]
  );
}

function FullTable(props: { output: CompareOutput }) {
  const { result, classNames } = props.output;
  const columns: Array<[string, Record<string, unknown>]> = [['recording', result.combined]];
  if (classNames.length > 1) for (const c of classNames) columns.push([c, result.classes[c] ?? {}]);
  const fields = Object.keys(result.combined).filter((f) => f !== 'alpha');
  return h(
    'table',
    { class: 'compare-table' },
    h('thead', null, h('tr', null, h('th', null, 'figure'), ...columns.map(([name]) => h('th', null, name)))),
    h(
      'tbody',
      null,
      fields.map((f) =>
        h(
          'tr',
          { key: f },
          h('th', null, f),
          ...columns.map(([name, values]) => h('td', { 'data-class': name, 'data-field': f }, figure(values[f]))),
        ),
      ),
    ),
  );
}

export function ComparePanel(props: ComparePanelProps) {
  const { layers, active } = props;
  const [gtId, setGtId] = useState<string | undefined>();
  const [predId, setPredId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  if (layers.length < 2) return null;
  const gt = layers.find((l) => l.runId === gtId) ?? likelyGroundTruth(layers)!;
  const pred = layers.find((l) => l.runId === predId && l !== gt) ?? layers.find((l) => l !== gt)!;

  async function compare() {
    setBusy(true);
    setError(undefined);
    try {
      const rec = props.recording;
      const output = await runComparison({
        gt: gt.tracks,
        pred: pred.tracks,
        width: rec.width,
        height: rec.height,
        frameCount: rec.frameCount,
        iouThreshold: 0.5,
      });
      props.onActive({ gt, pred, output });
    } catch (err) {
      setError(`Not compared: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  }

  const select = (name: string, value: Layer, set: (id: string) => void, exclude?: Layer) =>
    h(
      'label',
      null,
      name,
      h(
        'select',
        {
          class: name === 'Ground truth' ? 'compare-gt' : 'compare-pred',
          value: value.runId,
          disabled: busy,
          onChange: (e: Event) => {
            set((e.target as HTMLSelectElement).value);
            props.onActive(undefined);
          },
        },
        layers.filter((l) => l !== exclude).map((l) => h('option', { value: l.runId, key: l.runId }, label(l))),
      ),
    );

  const out = active?.output;
  return h(
    'section',
    { class: 'compare', 'aria-live': 'polite' },
    h('h2', null, 'Compare'),
    h('div', { class: 'compare-pick' }, select('Ground truth', gt, setGtId), select('Prediction', pred, setPredId, gt)),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { class: 'compare-run', disabled: busy, onClick: () => void compare() },
        busy ? 'Scoring…' : 'Compare',
      ),
      active
        ? h('button', { class: 'compare-stop', onClick: () => props.onActive(undefined) }, 'Stop comparing')
        : null,
    ),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    out
      ? [
          h(
            'dl',
            { class: 'compare-figures' },
            ...HEADLINE.flatMap((f) => [
              h('dt', null, f),
              h(
                'dd',
                { 'data-field': f, 'data-value': String(out.result.combined[f]) },
                figure(out.result.combined[f]),
              ),
            ]),
          ),
          h(
            'p',
            { class: 'compare-legend small' },
            h('span', { class: 'key matched' }, 'matched'),
            h('span', { class: 'key fp' }, 'false positive'),
            h('span', { class: 'key missed' }, 'missed'),
            h('span', { class: 'key switch' }, 'ID switch'),
          ),
          h(
            'p',
            { class: 'compare-switches small' },
            out.switchFrames.length === 0
              ? 'No identity switch.'
              : [
                  `Identity switches (${out.switchFrames.length}): `,
                  ...out.switchFrames
                    .slice(0, 50)
                    .map((f) =>
                      h('button', { class: 'link switch-frame', key: f, onClick: () => props.onSeek(f) }, String(f)),
                    ),
                  out.switchFrames.length > 50 ? ' …' : null,
                ],
          ),
          h('details', { class: 'compare-all' }, h('summary', null, 'All figures'), h(FullTable, { output: out })),
        ]
      : h(
          'p',
          { class: 'muted small' },
          'Scores the prediction against the ground truth (IoU 0.5) with the same engine as the server.',
        ),
  );
}
