// The tracks of the shown layers beside the timeline, in the timeline's row order: label, id, frames. A click
// selects the track and seeks to it. Long layers are filtered by text rather than listed whole (a 5000-track
// layer would be 5000 rows of DOM); at most LIMIT rows are shown.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { layerColor } from '../editor/overlay.js';
import { trackLabel, type Layer } from '../editor/layers.js';
import { userText } from '../user-text.js';

const LIMIT = 200;

export interface TrackListProps {
  layers: Layer[];
  selected?: { layer: Layer; id: string } | undefined;
  onPick: (layer: Layer, id: string) => void;
}

export function TrackList(props: TrackListProps) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const rows: Array<{ layer: Layer; n: number; id: string; label: string; first: number; last: number }> = [];
  let total = 0;
  props.layers.forEach((layer, n) => {
    if (!layer.visible) return;
    for (const t of layer.tracks) {
      const label = trackLabel(t);
      if (needle && !`${label} ${t.id}`.toLowerCase().includes(needle)) continue;
      total++;
      if (rows.length < LIMIT)
        rows.push({ layer, n, id: t.id, label, first: t.boxes[0]?.frame ?? 0, last: t.boxes.at(-1)?.frame ?? 0 });
    }
  });
  return h(
    'section',
    { class: 'track-list' },
    h('h2', null, 'Tracks'),
    h('input', {
      class: 'track-filter',
      type: 'search',
      placeholder: 'label or id',
      'aria-label': 'Filter the tracks',
      value: filter,
      onInput: (e: Event) => setFilter((e.target as HTMLInputElement).value),
    }),
    h(
      'ul',
      null,
      rows.map((r) =>
        h(
          'li',
          { key: `${r.layer.runId}/${r.id}` },
          h(
            'button',
            {
              class: `track-item${props.selected?.layer === r.layer && props.selected.id === r.id ? ' active' : ''}`,
              'data-track': r.id,
              'data-run-id': r.layer.runId,
              onClick: () => props.onPick(r.layer, r.id),
            },
            h('span', { class: 'swatch', style: { background: layerColor(r.n) } }),
            userText(r.label),
            ` #`,
            userText(r.id),
            h('span', { class: 'muted' }, ` ${r.first}–${r.last}`),
          ),
        ),
      ),
    ),
    total > rows.length ? h('p', { class: 'muted small' }, `${total - rows.length} more: filter to find them.`) : null,
  );
}
