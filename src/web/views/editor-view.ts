// One recording: the video (or a blank canvas of its size), every run drawn over it as a layer, the
// timeline, and corrections. Per-frame work (drawing, the frame read-out) bypasses Preact: only panels re-render.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, inWords } from '../api.js';
import type { Call } from '../call.js';
import { guardLeaving, when } from '../format.js';
import { canWrite, type Session } from '../session.js';
import { probeVideo, videoMissingInWords } from './video-missing.js';
import type { RecordingAssets, Run } from '../types.js';
import {
  correctedRunBody,
  deleteBox,
  deleteTrack,
  moveBox,
  resizeBox,
  type Corner,
  type SaveMode,
} from '../editor/corrections.js';
import { layerName, makeLayer, trackLabel, type Layer } from '../editor/layers.js';
import { boxesOnFrame, corners, drawOverlay, hitTest, isDrawn, HANDLE, type BoxRef } from '../editor/overlay.js';
import { ClockPlayer, VideoPlayer, type Player } from '../editor/player.js';
import { Timeline } from '../editor/timeline.js';
import { LayersPanel } from './layers-panel.js';
import { RunExport } from './run-export.js';
import { RunImport } from './run-import.js';
import { ComparePanel } from './compare-panel.js';
import { type ActiveComparison, drawComparison, paintTimeline, snapToSwitch } from '../compare/draw.js';
import { userText, userTextPlain } from '../user-text.js';

interface Drag {
  kind: 'move' | 'resize';
  corner: Corner;
  dx: number;
  dy: number;
  moved: boolean;
}

interface Engine {
  layers: Layer[];
  player?: Player;
  timeline?: Timeline;
  frame: number;
  frames: number;
  fps: number;
  trail: number;
  hover?: BoxRef | undefined;
  selected?: BoxRef | undefined;
  drag?: Drag | undefined;
  drawTimes: number[];
  drawn: number;
  /** Comparison mode: the ground-truth and prediction layers are drawn by their part in the matching. */
  compare?: ActiveComparison | undefined;
}

/** Read by the browser tests and the frame-time bench. */
declare global {
  interface Window {
    __sightline?: {
      frame: number;
      frames: number;
      drawn: number;
      drawTimes: number[];
      playing: boolean;
      comparing: boolean;
      seek(frame: number): void;
    };
  }
}

export function EditorView(props: { call: Call; session: Session; mediaKey: string }) {
  const { call, mediaKey } = props;
  const writer = canWrite(props.session);
  const [info, setInfo] = useState<RecordingAssets | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [noVideo, setNoVideo] = useState(false);
  const [videoProblem, setVideoProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [, setTick] = useState(0);
  const [inspect, setInspect] = useState<BoxRef | undefined>();
  const [redacted, setRedacted] = useState(false);
  const [loads, setLoads] = useState(0); // counts imports: each reads the layers again
  const bump = () => setTick((t) => t + 1);

  const engine = useRef<Engine>({
    layers: [],
    frame: 0,
    frames: 1,
    fps: 25,
    trail: 10,
    drawTimes: [],
    drawn: 0,
  }).current;
  const overlay = useRef<HTMLCanvasElement>(null);
  const timelineCanvas = useRef<HTMLCanvasElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const slider = useRef<HTMLInputElement>(null);
  const readout = useRef<HTMLSpanElement>(null);
  const playButton = useRef<HTMLButtonElement>(null);

  // ——— loading ———
  useEffect(() => {
    let live = true;
    Promise.all([
      call<{ data: RecordingAssets }>(`/recordings/${encodeURIComponent(mediaKey)}/assets`),
      call<{ data: { runs: Run[] } }>(`/detections?mediaKey=${encodeURIComponent(mediaKey)}&include=tracks`),
    ]).then(
      ([assets, runs]) => {
        if (!live) return;
        engine.layers = runs.data.runs.map(makeLayer);
        const rec = assets.data.recording;
        const media = runs.data.runs.find((r) => r.media)?.media ?? {};
        engine.fps = rec.fps ?? media.fps ?? 25;
        const fromRuns = Math.max(0, ...engine.layers.map((l) => l.index.frames));
        engine.frames = Math.max(
          1,
          rec.frameCount ?? media.frameCount ?? (rec.durationMs ? Math.round((rec.durationMs / 1000) * engine.fps) : 0),
          fromRuns,
        );
        setNoVideo(!assets.data.assets);
        setInfo(assets.data);
      },
      (err) => {
        if (live) setError(inWords(err));
      },
    );
    return () => {
      live = false;
    };
  }, [mediaKey, loads]);

  const size = (() => {
    const rec = info?.recording;
    const media = engine.layers.find((l) => l.run.media)?.run.media;
    return { width: rec?.width ?? media?.width ?? 640, height: rec?.height ?? media?.height ?? 360 };
  })();

  // ——— drawing ———
  function redraw() {
    const canvas = overlay.current;
    if (!canvas) return;
    const t0 = performance.now();
    const scale = canvas.width / (canvas.clientWidth || canvas.width);
    const cmp = engine.compare;
    const ctx = canvas.getContext('2d')!;
    engine.drawn = drawOverlay(ctx, cmp ? engine.layers.filter((l) => l !== cmp.gt && l !== cmp.pred) : engine.layers, {
      frame: engine.frame,
      trail: engine.trail,
      hover: engine.hover,
      selected: engine.selected,
      scale,
    });
    if (cmp) drawComparison(ctx, cmp, engine.frame, scale);
    const dt = performance.now() - t0;
    engine.drawTimes.push(dt);
    if (engine.drawTimes.length > 2000) engine.drawTimes.splice(0, 1000);
    engine.timeline?.draw(engine.frame);
    if (slider.current) slider.current.value = String(engine.frame);
    if (readout.current)
      readout.current.textContent = `Frame ${engine.frame} / ${engine.frames - 1} · ${(engine.frame / engine.fps).toFixed(2)} s`;
    if (playButton.current) playButton.current.textContent = engine.player?.playing ? 'Pause' : 'Play';
    window.__sightline = {
      frame: engine.frame,
      frames: engine.frames,
      drawn: engine.drawn,
      drawTimes: engine.drawTimes,
      playing: engine.player?.playing ?? false,
      comparing: engine.compare !== undefined,
      seek: (f: number) => engine.player?.seek(f),
    };
  }

  /** Enters, changes or (undefined) leaves comparison mode. */
  function setCompare(active: ActiveComparison | undefined) {
    engine.compare = active;
    if (engine.timeline)
      engine.timeline.decorate = active ? (ctx, w, h) => paintTimeline(ctx, active.output, w, h) : undefined;
    engine.timeline?.rebuild(engine.layers);
    redraw();
    bump();
  }

  function layersChanged(structural: boolean) {
    // Boxes added, removed or layers replaced: the comparison's box-by-box results no longer line up; score again.
    if (structural && engine.compare) setCompare(undefined);
    if (structural) engine.timeline?.rebuild(engine.layers);
    // A box hidden by visibility, opacity or threshold can no longer be hovered, selected or dragged.
    const dropSelected = engine.selected !== undefined && !isDrawn(engine.selected);
    const dropHover = engine.hover !== undefined && !isDrawn(engine.hover);
    if (dropSelected) {
      engine.selected = undefined;
      engine.drag = undefined;
    }
    if (dropHover) engine.hover = undefined;
    if (dropSelected || dropHover) setInspect(engine.selected ?? engine.hover);
    redraw();
    bump();
  }

  // ——— player and timeline, once the stage exists ———
  useEffect(() => {
    if (!info || !timelineCanvas.current) return;
    const tl = timelineCanvas.current;
    const fit = () => {
      tl.width = Math.max(200, Math.round(tl.clientWidth * (devicePixelRatio || 1)));
      tl.height = 150;
      engine.timeline?.rebuild(engine.layers);
      redraw();
    };
    engine.timeline = new Timeline(tl, engine.frames);
    const player: Player =
      !noVideo && video.current
        ? new VideoPlayer(video.current, engine.fps, engine.frames)
        : new ClockPlayer(engine.fps, engine.frames);
    engine.player = player;
    player.onFrame((f) => {
      if (f !== engine.frame) {
        engine.hover = undefined;
        engine.selected = undefined;
        engine.drag = undefined;
      }
      engine.frame = f;
      redraw();
    });
    // biome-ignore lint/suspicious/noFocusedTests: fit() sizes the canvas; it is not a test framework's focused `it`
    fit();
    addEventListener('resize', fit);
    return () => {
      removeEventListener('resize', fit);
      player.destroy();
      engine.player = undefined;
    };
  }, [info, noVideo]);

  // ——— unsaved corrections: asked about before the view or the page goes ———
  useEffect(() => {
    const unsaved = () => engine.layers.some((l) => l.edited);
    const onUnload = (e: BeforeUnloadEvent) => {
      if (unsaved()) {
        e.preventDefault();
        e.returnValue = '';
      }
    };
    guardLeaving(unsaved);
    addEventListener('beforeunload', onUnload);
    return () => {
      guardLeaving(undefined);
      removeEventListener('beforeunload', onUnload);
    };
  }, []);

  // ——— keyboard ———
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Behind a dialog (signing in again) the view is out of reach: its keys too.
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const t = e.target as HTMLElement;
      if (
        t.isContentEditable ||
        t.tagName === 'TEXTAREA' ||
        t.tagName === 'SELECT' ||
        (t.tagName === 'INPUT' && !['range', 'checkbox', 'radio'].includes((t as HTMLInputElement).type))
      )
        return;
      // On a focused control, Space, Enter and Delete keep their own meaning (toggle, press, …); the frame keys still work.
      const onControl = t.closest('input, button, a[href], [role=button], [role=checkbox], [role=slider]') !== null;
      if (onControl && (e.key === ' ' || e.key === 'Enter' || e.key === 'Delete')) return;
      const p = engine.player;
      if (!p) return;
      let handled = true;
      if (e.key === ' ') {
        if (p.playing) p.pause();
        else p.play();
        redraw();
      } else if (e.key === ',') {
        p.pause();
        p.seek(engine.frame - 1);
      } else if (e.key === '.') {
        p.pause();
        p.seek(engine.frame + 1);
      } else if (e.key === '[' || e.key === ']') {
        const f = engine.timeline?.neighbour(engine.frame, e.key === ']' ? 1 : -1);
        p.pause();
        if (f !== undefined) p.seek(f);
      } else if (e.key === 'Delete' && engine.selected && writer) removeSelectedBox();
      else if (e.key === 'n' || e.key === 'N') selectNextBox(e.shiftKey ? -1 : 1);
      else if (e.key === 'Escape' && engine.selected) selectBox(undefined);
      // Arrows on a control (the frame slider, a list) keep their own meaning.
      else if (e.key.startsWith('Arrow') && engine.selected && writer && !onControl)
        nudgeSelectedBox(e.key, e.shiftKey ? 10 : 1, e.altKey);
      else handled = false;
      // Space would also scroll the page.
      if (handled) e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [info]);

  // ——— pointer: hover, select, move, resize ———
  const toCanvas = (e: MouseEvent) => {
    const c = overlay.current!;
    const r = c.getBoundingClientRect();
    return {
      px: ((e.clientX - r.left) / r.width) * c.width,
      py: ((e.clientY - r.top) / r.height) * c.height,
      W: c.width,
      H: c.height,
      scale: c.width / r.width,
    };
  };

  function onDown(e: MouseEvent) {
    const { px, py, W, H, scale } = toCanvas(e);
    const sel = engine.selected;
    if (sel && writer) {
      const ix = sel.layer.index;
      const hit = corners(ix.x[sel.i]! * W, ix.y[sel.i]! * H, ix.w[sel.i]! * W, ix.h[sel.i]! * H).findIndex(
        ([cx, cy]) => Math.abs(cx - px) <= HANDLE * scale && Math.abs(cy - py) <= HANDLE * scale,
      );
      if (hit >= 0) {
        engine.drag = { kind: 'resize', corner: hit as Corner, dx: 0, dy: 0, moved: false };
        return;
      }
    }
    const ref = hitTest(engine.layers, engine.frame, px, py, W, H);
    if (ref && writer) {
      const ix = ref.layer.index;
      engine.drag = { kind: 'move', corner: 0, dx: px / W - ix.x[ref.i]!, dy: py / H - ix.y[ref.i]!, moved: false };
    }
    selectBox(ref);
  }

  function onMove(e: MouseEvent) {
    const { px, py, W, H } = toCanvas(e);
    const drag = engine.drag;
    const sel = engine.selected;
    if (drag && sel && e.buttons & 1) {
      if (drag.kind === 'move') moveBox(sel.layer, sel.i, px / W - drag.dx, py / H - drag.dy);
      else resizeBox(sel.layer, sel.i, drag.corner, px / W, py / H);
      drag.moved = true;
      redraw();
      return;
    }
    const ref = hitTest(engine.layers, engine.frame, px, py, W, H);
    if (ref?.layer !== engine.hover?.layer || ref?.i !== engine.hover?.i) {
      engine.hover = ref;
      if (!engine.selected) setInspect(ref);
      redraw();
    }
  }

  function onUp() {
    if (engine.drag?.moved) bump();
    engine.drag = undefined;
  }

  function onLeave() {
    onUp();
    if (!engine.hover) return;
    engine.hover = undefined;
    if (!engine.selected) setInspect(undefined);
    redraw();
  }

  // ——— keyboard: select, move and resize a box without a pointer ———
  /** Selects a box (the pointer's pick or the keyboard's), pausing on it, or none. */
  function selectBox(ref: BoxRef | undefined) {
    if (ref) engine.player?.pause();
    engine.selected = ref;
    setInspect(ref);
    redraw();
  }

  /** The next (or previous) shown box of the frame, after the selected one; from none, the first (or last). */
  function selectNextBox(step: 1 | -1) {
    const boxes = boxesOnFrame(engine.layers, engine.frame);
    if (boxes.length === 0) return;
    const sel = engine.selected;
    const at = sel ? boxes.findIndex((b) => b.layer === sel.layer && b.i === sel.i) : -1;
    selectBox(boxes[at < 0 ? (step > 0 ? 0 : boxes.length - 1) : (at + step + boxes.length) % boxes.length]);
  }

  /** Arrows move the selected box by `pixels` of the frame; with Alt they move its bottom-right corner instead. */
  function nudgeSelectedBox(key: string, pixels: number, resize: boolean) {
    const sel = engine.selected!;
    const c = overlay.current!;
    const dx = (key === 'ArrowRight' ? pixels : key === 'ArrowLeft' ? -pixels : 0) / c.width;
    const dy = (key === 'ArrowDown' ? pixels : key === 'ArrowUp' ? -pixels : 0) / c.height;
    const ix = sel.layer.index;
    const { i } = sel;
    if (resize) resizeBox(sel.layer, i, 3, ix.x[i]! + ix.w[i]! + dx, ix.y[i]! + ix.h[i]! + dy);
    else moveBox(sel.layer, i, ix.x[i]! + dx, ix.y[i]! + dy);
    setInspect({ ...sel });
    bump();
    redraw();
  }

  function removeSelectedBox() {
    const sel = engine.selected;
    if (!sel) return;
    deleteBox(sel.layer, sel.i);
    engine.selected = undefined;
    engine.hover = undefined;
    setInspect(undefined);
    layersChanged(true);
  }

  function removeSelectedTrack() {
    const sel = engine.selected;
    if (!sel) return;
    deleteTrack(sel.layer, sel.layer.index.track[sel.i]!);
    engine.selected = undefined;
    engine.hover = undefined;
    setInspect(undefined);
    layersChanged(true);
  }

  // ——— saving and deleting layers ———
  async function fetchRun(runId: string): Promise<Run> {
    return (
      await call<{ data: Run }>(`/detections/${encodeURIComponent(runId)}?mediaKey=${encodeURIComponent(mediaKey)}`)
    ).data;
  }

  function replaceLayer(old: Layer, run: Run) {
    const fresh = makeLayer(run);
    Object.assign(fresh, {
      visible: old.visible,
      opacity: old.opacity,
      colorBy: old.colorBy,
      threshold: old.threshold,
    });
    engine.layers = engine.layers.map((l) => (l === old ? fresh : l));
  }

  async function save(layer: Layer, mode: SaveMode) {
    if (layer.tracks.length === 0) {
      setMessage('Every track of this layer was deleted: delete the layer instead.');
      return;
    }
    setBusy(true);
    setMessage(undefined);
    try {
      const res = await call<{ runId: string; boxesStored: number; rejected: unknown[] }>('/detections', {
        method: 'POST',
        body: correctedRunBody(layer, mode, props.session.user.username),
      });
      engine.selected = undefined;
      engine.hover = undefined;
      setInspect(undefined);
      if (mode === 'replace') {
        replaceLayer(layer, await fetchRun(layer.runId));
      } else {
        // The original layer goes back to what the server holds; the corrections live in the new one.
        replaceLayer(layer, await fetchRun(layer.runId));
        engine.layers = [...engine.layers, makeLayer(await fetchRun(res.runId))];
      }
      setMessage(
        `Saved ${res.boxesStored} boxes ${mode === 'replace' ? `into ${layer.runId}` : `as the new layer ${res.runId}`}${res.rejected.length ? ` (${res.rejected.length} rejected)` : ''}.`,
      );
      layersChanged(true);
    } catch (err) {
      setMessage(`Not saved: ${inWords(err)}`);
    } finally {
      setBusy(false);
    }
  }

  async function remove(layer: Layer) {
    if (
      !confirm(
        `Delete the layer "${userTextPlain(layerName(layer.run))}" (${userTextPlain(layer.runId)})? This cannot be undone.`,
      )
    )
      return;
    setBusy(true);
    try {
      await call(`/detections/${encodeURIComponent(layer.runId)}?mediaKey=${encodeURIComponent(mediaKey)}`, {
        method: 'DELETE',
      });
      engine.layers = engine.layers.filter((l) => l !== layer);
      engine.selected = undefined;
      engine.hover = undefined;
      setInspect(undefined);
      setMessage(`Deleted the layer ${layer.runId}.`);
      layersChanged(true);
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'run_not_found') {
        engine.layers = engine.layers.filter((l) => l !== layer);
        layersChanged(true);
      }
      setMessage(`Not deleted: ${inWords(err)}`);
    } finally {
      setBusy(false);
    }
  }

  if (error)
    return h(
      'main',
      { class: 'editor' },
      h('p', { class: 'error', role: 'alert' }, error),
      h('a', { href: '#/recordings' }, '← Recordings'),
    );
  if (!info) return h('main', { class: 'editor' }, h('p', { class: 'muted' }, 'Loading…'));

  const rec = info.recording;
  const inspected = inspect && describe(inspect, engine.frame);
  return h(
    'main',
    { class: 'editor' },
    h(
      'div',
      { class: 'stage-column' },
      h(
        'div',
        { class: 'title' },
        h('a', { href: '#/recordings' }, '← Recordings'),
        h('h1', null, userText(rec.mediaKey)),
        h(
          'span',
          { class: 'muted' },
          rec.deviceKey === null ? 'no device' : userText(rec.deviceKey),
          ` · ${when(rec.startTimestamp)} · ${size.width}×${size.height} · ${engine.fps} fps`,
        ),
      ),
      h(
        'div',
        { class: 'stage', style: { aspectRatio: `${size.width} / ${size.height}` } },
        !noVideo && info.assets
          ? h('video', {
              ref: video,
              class: 'video',
              src: redacted ? info.assets.redacted : info.assets.video,
              poster: info.assets.thumbnail,
              muted: true,
              playsInline: true,
              preload: 'auto',
              onLoadedMetadata: () => engine.player?.seek(engine.frame),
              onError: (e: Event) => {
                setNoVideo(true);
                void probeVideo((e.currentTarget as HTMLVideoElement).src).then(setVideoProblem);
              },
            })
          : h('div', { class: 'blank', title: "No video: a blank canvas of the recording's size" }),
        h('canvas', {
          ref: overlay,
          class: 'overlay',
          width: size.width,
          height: size.height,
          onMouseDown: onDown,
          onMouseMove: onMove,
          onMouseUp: onUp,
          onMouseLeave: onLeave,
        }),
      ),
      h(
        'div',
        { class: 'transport' },
        h(
          'button',
          {
            ref: playButton,
            class: 'play',
            onClick: () => {
              const p = engine.player;
              if (!p) return;
              if (p.playing) p.pause();
              else p.play();
              redraw();
            },
          },
          'Play',
        ),
        h('input', {
          ref: slider,
          class: 'frame-slider',
          type: 'range',
          min: 0,
          max: engine.frames - 1,
          step: 1,
          value: engine.frame,
          'aria-label': 'Frame',
          // The value is read before pausing: a pause redraws, and a redraw writes the current frame into the slider.
          onInput: (e: Event) => {
            const f = Number((e.target as HTMLInputElement).value);
            engine.player?.pause();
            engine.player?.seek(f);
          },
        }),
        h('span', { ref: readout, class: 'frame-readout' }),
        !noVideo && info.assets
          ? h(
              'label',
              { class: 'redacted' },
              h('input', {
                type: 'checkbox',
                checked: redacted,
                onChange: (e: Event) => setRedacted((e.target as HTMLInputElement).checked),
              }),
              ' Redacted copy',
            )
          : null,
        h(
          'label',
          { class: 'trail' },
          'Trail',
          h('input', {
            type: 'number',
            min: 0,
            max: 250,
            value: engine.trail,
            onInput: (e: Event) => {
              engine.trail = Math.max(0, Number((e.target as HTMLInputElement).value) || 0);
              redraw();
            },
          }),
          'frames',
        ),
      ),
      h('canvas', {
        ref: timelineCanvas,
        class: 'timeline',
        height: 150,
        title: 'Click to seek',
        onClick: (e: MouseEvent) => {
          const tl = engine.timeline;
          if (!tl) return;
          const r = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
          engine.player?.pause();
          const f = tl.frameAt(e.clientX - r.left);
          // In comparison mode a click near an identity-switch mark lands on the switch's frame.
          const cmp = engine.compare;
          engine.player?.seek(cmp ? snapToSwitch(cmp.output, f, tl.frames / Math.max(1, r.width)) : f);
        },
      }),
      h(
        'p',
        { class: 'keys muted small' },
        'Space play/pause · , . frame step · [ ] previous/next detection · click a box to select, drag to move, drag a corner to resize, Delete removes it · n / Shift+n select the next / previous box, arrows move it (Shift: 10 px), Alt+arrows resize it, Esc deselects',
      ),
      noVideo ? h('p', { class: 'muted small no-video' }, videoMissingInWords(info, videoProblem)) : null,
      message ? h('p', { class: 'message', role: 'status' }, message) : null,
    ),
    h(
      'div',
      { class: 'side' },
      h(
        'section',
        { class: 'inspect', 'aria-live': 'polite' },
        h('h2', null, engine.selected ? 'Selected box' : 'Box under the pointer'),
        inspected
          ? h(
              'dl',
              null,
              ...Object.entries(inspected).flatMap(([k, v]) => [
                h('dt', null, k),
                h('dd', { 'data-field': k }, userText(v)),
              ]),
            )
          : h('p', { class: 'muted small' }, 'Hover or click a box.'),
        engine.selected && writer
          ? h(
              'div',
              { class: 'actions' },
              h('button', { class: 'delete-box', onClick: removeSelectedBox }, 'Delete box'),
              h('button', { class: 'delete-track', onClick: removeSelectedTrack }, 'Delete track'),
            )
          : null,
      ),
      h(ComparePanel, {
        layers: engine.layers,
        recording: rec,
        active: engine.compare,
        onActive: setCompare,
        onSeek: (f: number) => {
          engine.player?.pause();
          engine.player?.seek(f);
        },
      }),
      h(LayersPanel, {
        layers: engine.layers,
        canWrite: writer,
        busy,
        onChange: layersChanged,
        onSave: (l, m) => void save(l, m),
        onDelete: (l) => void remove(l),
        exportOf: (l, name) => h(RunExport, { token: props.session.token, runId: l.runId, mediaKey, name }),
      }),
      writer
        ? h(RunImport, {
            token: props.session.token,
            mediaKey,
            // Read the layers again unless that would drop unsaved corrections (then the next visit shows it).
            onImported: () => engine.layers.some((l) => l.edited) || setLoads((n) => n + 1),
          })
        : null,
    ),
  );
}

function describe(ref: BoxRef, frame: number): Record<string, string> {
  const { layer, i } = ref;
  const track = layer.tracks[layer.index.track[i]!];
  if (!track) return {};
  const conf = layer.index.conf[i]!;
  return {
    layer: layerName(layer.run),
    track: track.id,
    label: track.boxes[layer.index.slot[i]!]?.label ?? trackLabel(track),
    confidence: Number.isNaN(conf) ? '—' : conf.toFixed(3),
    frame: String(frame),
  };
}
