// The tracks of the shown layers beside the timeline, in the timeline's row order: label, id, frames. A click
// selects the track and seeks to it. Long layers are filtered by text rather than listed whole (a 5000-track
// layer would be 5000 rows of DOM); at most LIMIT rows are shown.
import { Component, h } from 'preact';
import { useState } from 'preact/hooks';
import { layerColor } from '../editor/overlay.js';
import { trackLabel, type Layer } from '../editor/layers.js';
import type { Track } from '../types.js';
import { userText } from '../user-text.js';

const LIMIT = 200;

export interface TrackListProps {
  layers: Layer[];
  selected?: { layer: Layer; id: string } | undefined;
  onPick: (layer: Layer, id: string) => void;
}

interface Row {
  layer: Layer;
  n: number;
  id: string;
  label: string;
  first: number;
  last: number;
}

export function TrackList(props: TrackListProps) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const rows: Row[] = [];
  let total = 0;
  const row = (layer: Layer, n: number, t: Track, label: string): Row => ({
    layer,
    n,
    id: t.id,
    label,
    first: t.boxes[0]?.frame ?? 0,
    last: t.boxes.at(-1)?.frame ?? 0,
  });
  props.layers.forEach((layer, n) => {
    if (!layer.visible) return;
    if (!needle) {
      // Unfiltered, the first LIMIT tracks are the rows: the others are only counted (an edit on a long layer
      // re-renders the list, and must not walk every track for it).
      total += layer.tracks.length;
      for (let ti = 0; ti < layer.tracks.length && rows.length < LIMIT; ti++) {
        const t = layer.tracks[ti]!;
        rows.push(row(layer, n, t, trackLabel(t)));
      }
      return;
    }
    for (const t of layer.tracks) {
      const label = trackLabel(t);
      if (!`${label} ${t.id}`.toLowerCase().includes(needle)) continue;
      total++;
      if (rows.length < LIMIT) rows.push(row(layer, n, t, label));
    }
  });
  const sel = props.selected;
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
        h(TrackRow, {
          key: `${r.layer.runId}/${r.id}`,
          row: r,
          active: sel?.layer === r.layer && sel.id === r.id,
          onPick: props.onPick,
        }),
      ),
    ),
    total > rows.length ? h('p', { class: 'muted small' }, `${total - rows.length} more: filter to find them.`) : null,
  );
}

interface TrackRowProps {
  row: Row;
  active: boolean;
  onPick: (layer: Layer, id: string) => void;
}

/**
 * One row of the list. It renders again only when what it shows changed: an edit re-renders the side panel, and
 * diffing every row of the list each time would cost more than the edit itself.
 */
class TrackRow extends Component<TrackRowProps> {
  override shouldComponentUpdate(next: TrackRowProps): boolean {
    const a = this.props.row;
    const b = next.row;
    return (
      this.props.active !== next.active ||
      a.layer !== b.layer ||
      a.n !== b.n ||
      a.id !== b.id ||
      a.label !== b.label ||
      a.first !== b.first ||
      a.last !== b.last
    );
  }

  override render() {
    const r = this.props.row;
    return h(
      'li',
      null,
      h(
        'button',
        {
          class: `track-item${this.props.active ? ' active' : ''}`,
          'data-track': r.id,
          'data-run-id': r.layer.runId,
          // this.props at the click: Preact updates them even when the row did not render again.
          onClick: () => this.props.onPick(r.layer, r.id),
        },
        h('span', { class: 'swatch', style: { background: layerColor(r.n) } }),
        userText(r.label),
        ` #`,
        userText(r.id),
        h('span', { class: 'muted' }, ` ${r.first}–${r.last}`),
      ),
    );
  }
}
