// Region search: draw a rectangle or a polygon over a frame of a chosen recording (or a blank frame) and
// list the recordings whose detections fall inside, with their matching runs and labels. A hit opens the
// recording at the first frame that matched.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { inWords } from '../api.js';
import type { Call } from '../call.js';
import { recordingHref, when } from '../format.js';
import type { RecordingAssets, RecordingInfo } from '../types.js';
import { userText, userTextPlain } from '../user-text.js';

interface Point {
  x: number;
  y: number;
}
interface Hit {
  mediaKey: string;
  analysisId: string;
  startTimestamp: number;
  deviceKey: string | null;
  /** The first frame any match was seen at (null only for detections stored before frames were kept). */
  firstFrame: number | null;
  matches: Array<{ runId: string; label: string; count: number; firstFrame: number | null }>;
}
type Mode = 'rectangle' | 'polygon';

const BLANK = { width: 640, height: 360 };

/** The region as text, in frame pixels: `x, y, width, height` for a rectangle, `x y; x y; …` for a polygon. */
function regionText(mode: Mode, points: Point[]): string {
  if (points.length === 0) return '';
  if (mode === 'polygon') return points.map((p) => `${p.x} ${p.y}`).join('; ');
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)].join(
    ', ',
  );
}

/** The points typed as text (the keyboard's way to give a region), or undefined while the text is not one. */
function pointsOf(mode: Mode, text: string): Point[] | undefined {
  const numbers = (part: string) =>
    part
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
  if (mode === 'rectangle') {
    const v = numbers(text);
    if (v.length !== 4 || !v.every(Number.isFinite)) return undefined;
    const [x, y, w, h] = v as [number, number, number, number];
    return [
      { x, y },
      { x: x + w, y },
      { x: x + w, y: y + h },
      { x, y: y + h },
    ];
  }
  const points = text
    .split(';')
    .filter((p) => p.trim() !== '')
    .map(numbers);
  if (points.length < 3 || !points.every((p) => p.length === 2 && p.every(Number.isFinite))) return undefined;
  return points.map(([x, y]) => ({ x: x!, y: y! }));
}

export function RegionSearch(props: { call: Call }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [recordings, setRecordings] = useState<RecordingInfo[]>([]);
  const [chosen, setChosen] = useState('');
  const [size, setSize] = useState(BLANK);
  const [image, setImage] = useState<HTMLImageElement | undefined>();
  const [mode, setMode] = useState<Mode>('rectangle');
  const [points, setPoints] = useState<Point[]>([]);
  const [closed, setClosed] = useState(false);
  const [drag, setDrag] = useState<Point | undefined>();
  // What the region field shows: the drawn region, or what is being typed into it.
  const [typed, setTyped] = useState<string | undefined>();
  const [labels, setLabels] = useState('');
  const [hits, setHits] = useState<{ list: Hit[]; nextCursor: string | null } | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    props.call<{ data: unknown }>('/recordings?limit=100').then(
      (r) => {
        const d = r.data as { recordings?: RecordingInfo[] } | RecordingInfo[];
        setRecordings(Array.isArray(d) ? d : (d.recordings ?? []));
      },
      (err) => setError(inWords(err)),
    );
  }, []);

  useEffect(() => {
    setImage(undefined);
    const rec = recordings.find((r) => r.id === chosen);
    setSize(rec?.width && rec.height ? { width: rec.width, height: rec.height } : BLANK);
    if (!rec) return;
    props.call<{ data: RecordingAssets }>(`/recordings/${encodeURIComponent(rec.id)}/assets`).then(
      (r) => {
        if (!r.data.assets) return;
        const img = new Image();
        img.onload = () => setImage(img);
        img.src = r.data.assets.thumbnail;
      },
      () => {},
    );
  }, [chosen, recordings]);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#2c2c2e';
    ctx.fillRect(0, 0, c.width, c.height);
    if (image) ctx.drawImage(image, 0, 0, c.width, c.height);
    if (points.length === 0) return;
    ctx.strokeStyle = '#ffd60a';
    ctx.fillStyle = '#ffd60a33';
    ctx.lineWidth = 2;
    ctx.beginPath();
    points.forEach((p, i) => {
      if (i === 0) ctx.moveTo(p.x, p.y);
      else ctx.lineTo(p.x, p.y);
    });
    if (closed || mode === 'rectangle') {
      ctx.closePath();
      ctx.fill();
    }
    ctx.stroke();
    for (const p of points) ctx.fillRect(p.x - 3, p.y - 3, 6, 6);
  }, [points, closed, image, size, mode]);

  const at = (e: MouseEvent): Point => {
    const c = canvas.current!;
    const r = c.getBoundingClientRect();
    return {
      x: Math.round(((e.clientX - r.left) / r.width) * c.width),
      y: Math.round(((e.clientY - r.top) / r.height) * c.height),
    };
  };
  const rect = (a: Point, b: Point): Point[] => [
    { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) },
    { x: Math.max(a.x, b.x), y: Math.min(a.y, b.y) },
    { x: Math.max(a.x, b.x), y: Math.max(a.y, b.y) },
    { x: Math.min(a.x, b.x), y: Math.max(a.y, b.y) },
  ];

  const onDown = (e: MouseEvent) => {
    if (mode !== 'rectangle') return;
    const p = at(e);
    setDrag(p);
    setPoints(rect(p, p));
    setClosed(true);
    setTyped(undefined);
  };
  const onMove = (e: MouseEvent) => {
    if (drag) setPoints(rect(drag, at(e)));
  };
  const onUp = (e: MouseEvent) => {
    if (drag) {
      setPoints(rect(drag, at(e)));
      setDrag(undefined);
    }
  };
  const onClick = (e: MouseEvent) => {
    if (mode !== 'polygon') return;
    setTyped(undefined);
    if (closed) {
      setPoints([at(e)]);
      setClosed(false);
      return;
    }
    setPoints([...points, at(e)]);
  };

  async function search(cursor?: string) {
    if (points.length < 3) {
      setHits(undefined);
      setError('Draw a rectangle or a polygon of at least three points, or type the region, first.');
      return;
    }
    const { width, height } = size;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const region =
      mode === 'rectangle'
        ? {
            x: Math.min(...xs) / width,
            y: Math.min(...ys) / height,
            w: (Math.max(...xs) - Math.min(...xs)) / width,
            h: (Math.max(...ys) - Math.min(...ys)) / height,
          }
        : { points, width, height };
    const body: Record<string, unknown> = { region, limit: 50 };
    const wanted = labels
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    if (wanted.length > 0) body.labels = wanted;
    if (cursor) body.cursor = cursor;
    try {
      setError(undefined);
      type Page = { data: { recordings: Hit[]; nextCursor: string | null } };
      let res = await props.call<Page>('/recordings/search', { method: 'POST', body });
      // A page cut short by the server's work budget may be empty yet not the last: go on a few times by ourselves
      // before asking the user to press More.
      for (let more = 0; more < 4 && res.data.recordings.length === 0 && res.data.nextCursor; more++) {
        res = await props.call<Page>('/recordings/search', {
          method: 'POST',
          body: { ...body, cursor: res.data.nextCursor },
        });
      }
      setHits({
        list: cursor && hits ? [...hits.list, ...res.data.recordings] : res.data.recordings,
        nextCursor: res.data.nextCursor,
      });
    } catch (err) {
      // Results of another region must not read as the answer for this one.
      setHits(undefined);
      setError(inWords(err));
    }
  }

  return h(
    'main',
    { class: 'search' },
    h(
      'div',
      { class: 'search-tools' },
      h(
        'label',
        null,
        'Frame of',
        h(
          'select',
          {
            name: 'recording',
            value: chosen,
            onChange: (e: Event) => {
              setChosen((e.target as HTMLSelectElement).value);
              setPoints([]);
              setTyped(undefined);
            },
          },
          h('option', { value: '' }, 'a blank frame'),
          recordings.map((r) => h('option', { value: r.id }, userTextPlain(r.mediaKey))),
        ),
      ),
      h(
        'label',
        null,
        'Shape',
        h(
          'select',
          {
            name: 'mode',
            value: mode,
            onChange: (e: Event) => {
              setMode((e.target as HTMLSelectElement).value as Mode);
              setPoints([]);
              setClosed(false);
              setTyped(undefined);
            },
          },
          h('option', { value: 'rectangle' }, 'rectangle (drag)'),
          h('option', { value: 'polygon' }, 'polygon (click points)'),
        ),
      ),
      h(
        'label',
        null,
        mode === 'rectangle' ? 'Region: x, y, width, height (px)' : 'Region: x y; x y; x y … (px)',
        h('input', {
          name: 'region',
          value: typed ?? regionText(mode, points),
          placeholder: mode === 'rectangle' ? '100, 50, 200, 150' : '100 50; 300 50; 200 200',
          onInput: (e: Event) => {
            const text = (e.target as HTMLInputElement).value;
            setTyped(text);
            const typedPoints = pointsOf(mode, text);
            setPoints(typedPoints ?? []);
            setClosed(typedPoints !== undefined);
          },
        }),
      ),
      mode === 'polygon'
        ? h(
            'button',
            { type: 'button', onClick: () => setClosed(true), disabled: points.length < 3 || closed },
            'Close polygon',
          )
        : null,
      h(
        'button',
        {
          type: 'button',
          onClick: () => {
            setPoints([]);
            setClosed(false);
            setTyped(undefined);
          },
        },
        'Clear',
      ),
      h(
        'label',
        null,
        'Labels',
        h('input', {
          name: 'labels',
          placeholder: 'person, car',
          value: labels,
          onInput: (e: Event) => setLabels((e.target as HTMLInputElement).value),
        }),
      ),
      h('button', { type: 'button', class: 'primary', onClick: () => void search() }, 'Search'),
    ),
    h('canvas', {
      ref: canvas,
      class: 'region-canvas',
      width: size.width,
      height: size.height,
      role: 'img',
      'aria-label':
        points.length > 0
          ? `The region: ${regionText(mode, points)} (px of a ${size.width}×${size.height} frame)`
          : `A ${size.width}×${size.height} frame with no region yet`,
      onMouseDown: onDown,
      onMouseMove: onMove,
      onMouseUp: onUp,
      onClick,
      onDblClick: () => setClosed(true),
    }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    // A search may stop partway (its work per request is bounded) with nothing found yet but more to look at.
    hits && hits.list.length === 0
      ? h(
          'p',
          { class: 'empty search-empty' },
          hits.nextCursor
            ? 'No match yet among the recordings searched so far. More goes on with older recordings.'
            : 'No recording has detections inside this region.',
        )
      : null,
    hits && hits.list.length > 0
      ? h(
          'table',
          { class: 'list results' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Recording', 'Device', 'Start', 'Matching runs and labels'].map((c) => h('th', null, c)),
            ),
          ),
          h(
            'tbody',
            null,
            hits.list.map((r) =>
              h(
                'tr',
                {
                  class: 'result-row',
                  'data-media-key': r.mediaKey,
                  // A click on one of the row's own links goes where that link says (a match's frame).
                  onClick: (e: MouseEvent) => {
                    if (!(e.target as Element).closest('a')) location.hash = recordingHref(r.mediaKey, r.firstFrame);
                  },
                },
                h('td', null, h('a', { href: recordingHref(r.mediaKey, r.firstFrame) }, userText(r.mediaKey))),
                h('td', null, r.deviceKey === null ? '—' : userText(r.deviceKey)),
                h('td', null, when(r.startTimestamp)),
                h(
                  'td',
                  null,
                  r.matches.map((m) =>
                    h(
                      'span',
                      { class: 'match' },
                      userText(m.label),
                      ` × ${m.count} (`,
                      userText(m.runId),
                      ')',
                      m.firstFrame === null
                        ? null
                        : h(
                            'a',
                            { class: 'match-frame', href: recordingHref(r.mediaKey, m.firstFrame) },
                            ` from frame ${m.firstFrame}`,
                          ),
                    ),
                  ),
                ),
              ),
            ),
          ),
        )
      : null,
    hits?.nextCursor ? h('button', { onClick: () => void search(hits.nextCursor!) }, 'More') : null,
  );
}
