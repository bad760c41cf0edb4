// The recordings list: thumbnail, device, start time, number of runs, labels; filters; newest first.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { inWords } from '../api.js';
import type { Call } from '../call.js';
import { go, when } from '../format.js';
import type { RecordingAssets, RecordingInfo } from '../types.js';
import { userList, userText } from '../user-text.js';

export interface ListedRecording extends RecordingInfo {
  runCount?: number;
}
interface Page {
  recordings: ListedRecording[];
  nextCursor: string | null;
}
interface SearchHit {
  mediaKey: string;
  matches: Array<{ runId: string; label: string; count: number }>;
}

/** GET /recordings answers `{ data: { recordings, nextCursor } }`; a bare array is accepted too. */
function asPage(data: unknown): Page {
  if (Array.isArray(data)) return { recordings: data as ListedRecording[], nextCursor: null };
  const d = data as Partial<Page>;
  return { recordings: d.recordings ?? [], nextCursor: d.nextCursor ?? null };
}

const dateToUnix = (v: string, end: boolean) =>
  v ? Math.floor(Date.parse(`${v}T${end ? '23:59:59' : '00:00:00'}Z`) / 1000) : undefined;

export function Thumbnail(props: { call: Call; id: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    props.call<{ data: RecordingAssets }>(`/recordings/${encodeURIComponent(props.id)}/assets`).then(
      (r) => {
        if (live) setSrc(r.data.assets?.thumbnail ?? null);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [props.id]);
  return src
    ? h('img', { class: 'thumb', src, alt: '', loading: 'lazy', onError: () => setSrc(null) })
    : h('div', { class: 'thumb blank' });
}

type Filters = { device: string; from: string; to: string; label: string; hasDetections: string };
const NO_FILTERS: Filters = { device: '', from: '', to: '', label: '', hasDetections: '' };

// The list shown last in this tab (its filters and page), so that Back from a recording returns to it.
const SHOWN = 'sightline.recordings';

function shownBefore(): { filters: Filters; cursors: string[] } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SHOWN) ?? 'null') as {
      filters?: Partial<Filters>;
      cursors?: unknown;
    } | null;
    const cursors =
      Array.isArray(saved?.cursors) && saved.cursors.every((c) => typeof c === 'string')
        ? (saved.cursors as string[])
        : [];
    const filters = { ...NO_FILTERS };
    for (const key of Object.keys(NO_FILTERS) as Array<keyof Filters>)
      if (typeof saved?.filters?.[key] === 'string') filters[key] = saved.filters[key]!;
    return { filters, cursors };
  } catch {
    return { filters: { ...NO_FILTERS }, cursors: [] };
  }
}

export function Recordings(props: { call: Call }) {
  const [before] = useState(shownBefore);
  const [filters, setFilters] = useState(before.filters);
  const [page, setPage] = useState<Page | undefined>();
  const [labels, setLabels] = useState<Map<string, string[]>>(new Map());
  const [cursors, setCursors] = useState<string[]>(before.cursors);
  const [error, setError] = useState<string | undefined>();

  /** Loads the page at the end of `stack` (the cursors of the pages before it) with the filters in the form. */
  async function load(stack: string[]) {
    setCursors(stack);
    sessionStorage.setItem(SHOWN, JSON.stringify({ filters, cursors: stack }));
    const cursor = stack[stack.length - 1];
    const q = new URLSearchParams({ limit: '25' });
    if (filters.device) q.set('device', filters.device);
    const from = dateToUnix(filters.from, false);
    const to = dateToUnix(filters.to, true);
    if (from !== undefined) q.set('from', String(from));
    if (to !== undefined) q.set('to', String(to));
    if (filters.label) q.set('label', filters.label);
    if (filters.hasDetections) q.set('hasDetections', filters.hasDetections);
    if (cursor) q.set('cursor', cursor);
    try {
      setError(undefined);
      const res = asPage((await props.call<{ data: unknown }>(`/recordings?${q}`)).data);
      setPage(res);
      void loadLabels(res.recordings);
    } catch (err) {
      // The previous page does not match the filters shown any more.
      setPage(undefined);
      setError(inWords(err));
    }
  }

  // Labels per recording: one full-frame region search over the page's time span (the list has no labels).
  async function loadLabels(recordings: ListedRecording[]) {
    if (recordings.length === 0) return;
    const starts = recordings.map((r) => r.startTimestamp);
    try {
      const body = {
        region: { x: 0, y: 0, w: 1, h: 1 },
        from: Math.min(...starts),
        to: Math.max(...starts),
        limit: 100,
      };
      const hits: SearchHit[] = [];
      // A page may come back short (the server bounds a search's work): follow the cursor, a few pages at most.
      let cursor: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const res: { data: { recordings: SearchHit[]; nextCursor: string | null } } = await props.call(
          '/recordings/search',
          { method: 'POST', body: { ...body, cursor } },
        );
        hits.push(...res.data.recordings);
        cursor = res.data.nextCursor;
        if (!cursor || hits.length >= recordings.length) break;
      }
      setLabels(new Map(hits.map((r) => [r.mediaKey, [...new Set(r.matches.map((m) => m.label))].sort()])));
    } catch {
      setLabels(new Map());
    }
  }

  useEffect(() => {
    void load(before.cursors);
  }, []);

  const field = (name: keyof Filters, label: string, type = 'text') =>
    h(
      'label',
      null,
      label,
      h('input', {
        name,
        type,
        value: filters[name],
        onInput: (e: Event) => setFilters({ ...filters, [name]: (e.target as HTMLInputElement).value }),
      }),
    );

  return h(
    'main',
    { class: 'recordings' },
    h(
      'form',
      {
        class: 'filters',
        onSubmit: (e: Event) => {
          e.preventDefault();
          void load([]);
        },
      },
      field('device', 'Device'),
      field('from', 'From', 'date'),
      field('to', 'To', 'date'),
      field('label', 'Label'),
      h(
        'label',
        null,
        'Detections',
        h(
          'select',
          {
            name: 'hasDetections',
            value: filters.hasDetections,
            onChange: (e: Event) => setFilters({ ...filters, hasDetections: (e.target as HTMLSelectElement).value }),
          },
          h('option', { value: '' }, 'any'),
          h('option', { value: 'true' }, 'with runs'),
          h('option', { value: 'false' }, 'without runs'),
        ),
      ),
      h('button', { type: 'submit' }, 'Filter'),
    ),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    page && page.recordings.length === 0 ? h('p', { class: 'empty' }, 'No recordings match.') : null,
    page
      ? h(
          'table',
          { class: 'list' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['', 'Recording', 'Device', 'Start', 'Runs', 'Labels'].map((c) => h('th', null, c)),
            ),
          ),
          h(
            'tbody',
            null,
            page.recordings.map((r) =>
              h(
                'tr',
                {
                  key: r.id,
                  class: 'recording-row',
                  'data-media-key': r.mediaKey,
                  onClick: () => go('recording', r.mediaKey),
                },
                h('td', null, h(Thumbnail, { call: props.call, id: r.id })),
                h('td', null, h('a', { href: `#/recording/${encodeURIComponent(r.mediaKey)}` }, userText(r.mediaKey))),
                h('td', null, r.deviceKey === null ? '—' : userText(r.deviceKey)),
                h('td', null, when(r.startTimestamp)),
                h('td', { class: 'runs' }, r.runCount ?? '—'),
                h('td', { class: 'labels' }, userList(labels.get(r.mediaKey) ?? [])),
              ),
            ),
          ),
        )
      : null,
    h(
      'div',
      { class: 'pager' },
      cursors.length > 0 ? h('button', { onClick: () => void load(cursors.slice(0, -1)) }, '← Newer') : null,
      page?.nextCursor ? h('button', { onClick: () => void load([...cursors, page.nextCursor!]) }, 'Older →') : null,
    ),
  );
}
