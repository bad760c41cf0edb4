// One recording: the video (or a blank canvas of its size), every run drawn over it as a layer, the
// timeline, and corrections. Per-frame work (drawing, the frame read-out) bypasses Preact: only panels re-render.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, inWords } from '../api.js';
import type { Call } from '../call.js';
import { guardLeaving, when } from '../format.js';
import { canWrite, type Session } from '../session.js';
import { probeVideo, videoMissingInWords } from './video-missing.js';
import type { RecordingAssets, Run, Track } from '../types.js';
import { correctedRunBody, moveBox, resizeBox, type Corner, type SaveMode } from '../editor/corrections.js';
import { layerName, makeLayer, reindex, trackLabel, type Layer } from '../editor/layers.js';
import { applySnapshot, History, snapshot, type TrackState } from '../editor/history.js';
import { buildPatch, isEmptyPatch, markChanged, remember } from '../editor/patch.js';
import { addKeyframe, interpolateAround, toggleKeyframe } from '../editor/interpolate.js';
import {
  addTrack,
  deleteFrames,
  freshTrackId,
  mergeProblem,
  mergeTracks,
  relabel,
  splitTrack,
} from '../editor/track-edits.js';
import { LayerRevisions } from './layer-revisions.js';
import { TrackList } from './track-list.js';
import {
  boxesOnFrame,
  corners,
  drawOverlay,
  hitTest,
  isDrawn,
  markArea,
  sameShown,
  shownOnFrame,
  trackArea,
  unionArea,
  HANDLE,
  type BoxRef,
  type Rect,
} from '../editor/overlay.js';
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
  /** The selected track: it stays selected across frames (its box on each frame is `selected`). */
  selTrack?: { layer: Layer; id: string } | undefined;
  /** The dragged track as it was before the drag: one undo step per drag. */
  dragBefore?: TrackState[] | undefined;
  history: History<Layer>;
  /** The tool of a plain drag on the canvas: select/move, or draw a new box. */
  tool: 'select' | 'box';
  /** A new box being drawn (normalized corners). */
  drawing?: { x0: number; y0: number; x1: number; y1: number } | undefined;
  /** View zoom and pan (CSS transform of the stage; the canvas keeps frame pixels). */
  zoom: { k: number; tx: number; ty: number };
  pan?: { x: number; y: number; tx: number; ty: number } | undefined;
  spaceHeld: boolean;
  /** Labels drawn on the boxes (label, track id, score). */
  labels: boolean;
  panned: boolean;
  drawTimes: number[];
  drawn: number;
  /** Comparison mode: the ground-truth and prediction layers are drawn by their part in the matching. */
  compare?: ActiveComparison | undefined;
  /** Which boxes of the frame the edited layer showed before the edit running now (see editedArea). */
  shownBefore?: { layer: Layer; shown: Uint8Array } | undefined;
  /** The part of the overlay the next redraw needs to draw again; undefined: all of it. */
  dirty?: Rect | undefined;
  /** The hover and selection outlines as last drawn: a partial redraw must cover them too. */
  marks: Array<Rect | undefined>;
  partialDraws: number;
}

/** Read by the browser tests and the frame-time bench. */
declare global {
  interface Window {
    __sightline?: {
      frame: number;
      frames: number;
      drawn: number;
      drawTimes: number[];
      /** Redraws that drew only the part of the overlay an edit changed. */
      partialDraws: number;
      playing: boolean;
      comparing: boolean;
      seek(frame: number): void;
    };
  }
}

export function EditorView(props: { call: Call; session: Session; mediaKey: string; frame?: number }) {
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
  const [newLabel, setNewLabel] = useState('');
  const [drawInto, setDrawInto] = useState<string | undefined>();
  const [conflict, setConflict] = useState<{ layer: Layer; current?: number } | undefined>();
  const bump = () => setTick((t) => t + 1);

  const engine = useRef<Engine>({
    layers: [],
    frame: 0,
    frames: 1,
    fps: 25,
    trail: 10,
    history: new History<Layer>(),
    tool: 'select',
    zoom: { k: 1, tx: 0, ty: 0 },
    spaceHeld: false,
    labels: true,
    panned: false,
    drawTimes: [],
    drawn: 0,
    marks: [],
    partialDraws: 0,
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
        // Layers read again (after an import): the undo steps of the old ones no longer apply.
        engine.history = new History<Layer>();
        engine.selTrack = undefined;
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
    // The part an edit changed is for this redraw only, whatever it draws.
    const dirty = engine.dirty;
    engine.dirty = undefined;
    const canvas = overlay.current;
    if (!canvas) return;
    const t0 = performance.now();
    const scale = canvas.width / (canvas.clientWidth || canvas.width);
    const cmp = engine.compare;
    const ctx = canvas.getContext('2d')!;
    const clip = cmp || engine.drawing ? undefined : dirty;
    if (clip) engine.partialDraws++;
    engine.drawn = drawOverlay(ctx, cmp ? engine.layers.filter((l) => l !== cmp.gt && l !== cmp.pred) : engine.layers, {
      frame: engine.frame,
      trail: engine.trail,
      hover: engine.hover,
      selected: engine.selected,
      scale,
      labels: engine.labels,
      clip,
    });
    engine.marks = [
      markArea(engine.hover, canvas.width, canvas.height, scale),
      markArea(engine.selected, canvas.width, canvas.height, scale),
    ];
    const d = engine.drawing;
    if (d) {
      const { width: W, height: H } = canvas;
      ctx.setLineDash([6 * scale, 4 * scale]);
      ctx.lineWidth = 2 * scale;
      ctx.strokeStyle = '#ffffff';
      ctx.strokeRect(
        Math.min(d.x0, d.x1) * W,
        Math.min(d.y0, d.y1) * H,
        Math.abs(d.x1 - d.x0) * W,
        Math.abs(d.y1 - d.y0) * H,
      );
      ctx.setLineDash([]);
    }
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
      partialDraws: engine.partialDraws,
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

  function setTool(tool: 'select' | 'box') {
    engine.tool = tool;
    if (overlay.current) overlay.current.style.cursor = tool === 'box' ? 'crosshair' : '';
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
      const moved = f !== engine.frame;
      engine.frame = f;
      // The link names the frame shown once playing stops (replaceState: no history entry, no hashchange).
      if (moved && !player.playing) {
        const link = `#/recording/${encodeURIComponent(mediaKey)}${f > 0 ? `?frame=${f}` : ''}`;
        if (location.hash !== link) history.replaceState(history.state, '', link);
      }
      if (moved) {
        // The selected track stays selected: its box on the new frame, if it has one.
        engine.hover = undefined;
        engine.drag = undefined;
        const st = engine.selTrack;
        const next = st ? boxOfTrack(st.layer, st.id) : undefined;
        if (next?.i !== engine.selected?.i || next?.layer !== engine.selected?.layer) {
          engine.selected = next;
          setInspect(next);
        }
      }
      redraw();
    });
    if (props.frame !== undefined) player.seek(Math.min(engine.frames - 1, props.frame));
    // biome-ignore lint/suspicious/noFocusedTests: fit() sizes the canvas; it is not a test framework's focused `it`
    fit();
    addEventListener('resize', fit);
    return () => {
      removeEventListener('resize', fit);
      player.destroy();
      engine.player = undefined;
    };
  }, [info, noVideo]);

  // ——— a link to another frame of this recording (typed, or a search hit) seeks there ———
  useEffect(() => {
    if (props.frame !== undefined && props.frame !== engine.frame) {
      engine.player?.pause();
      engine.player?.seek(Math.min(engine.frames - 1, props.frame));
    }
  }, [props.frame]);

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
      const mod = e.ctrlKey || e.metaKey;
      if (mod && (e.key === 'z' || e.key === 'Z')) undoRedo(e.shiftKey);
      else if (mod && (e.key === 'y' || e.key === 'Y')) undoRedo(true);
      else if (mod) handled = false;
      else if (e.key === ' ') {
        // Play/pause when the key comes up, unless it was held to pan the zoomed view.
        if (!e.repeat) {
          engine.spaceHeld = true;
          engine.panned = false;
        }
      } else if (e.key === 'b' || e.key === 'B') {
        if (writer) setTool(engine.tool === 'box' ? 'select' : 'box');
      } else if ((e.key === 'k' || e.key === 'K') && writer) keyframe();
      else if ((e.key === 's' || e.key === 'S') && writer) split();
      else if (e.key === '0') {
        resetZoom();
        redraw();
      } else if (e.key === 't' || e.key === 'T') {
        engine.labels = !engine.labels;
        redraw();
        bump();
      } else if (e.key === 'g' || e.key === 'G') {
        const input = document.querySelector<HTMLInputElement>('input.goto-frame');
        input?.focus();
        input?.select();
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
      } else if (e.key === 'Delete' && e.shiftKey && engine.selTrack && writer) removeSelectedTrack();
      else if (e.key === 'Delete' && engine.selected && writer) removeSelectedBox();
      else if (e.key === 'n' || e.key === 'N') selectNextBox(e.shiftKey ? -1 : 1);
      else if (e.key === 'Escape' && engine.selected) selectBox(undefined);
      // Arrows on a control (the frame slider, a list) keep their own meaning.
      else if (e.key.startsWith('Arrow') && engine.selected && writer && !onControl)
        nudgeSelectedBox(e.key, e.shiftKey ? 10 : 1, e.altKey);
      else handled = false;
      // Space would also scroll the page.
      if (handled) e.preventDefault();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key !== ' ' || !engine.spaceHeld) return;
      engine.spaceHeld = false;
      const p = engine.player;
      if (engine.panned || !p) return;
      if (p.playing) p.pause();
      else p.play();
      redraw();
    };
    addEventListener('keydown', onKey);
    addEventListener('keyup', onKeyUp);
    return () => {
      removeEventListener('keydown', onKey);
      removeEventListener('keyup', onKeyUp);
    };
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

  /** The stage's zoom and pan as a CSS transform: the canvas keeps frame pixels, so coordinates stay right. */
  const zoomBox = useRef<HTMLDivElement>(null);
  function applyZoom() {
    const z = engine.zoom;
    if (zoomBox.current) zoomBox.current.style.transform = `translate(${z.tx}px, ${z.ty}px) scale(${z.k})`;
  }

  function resetZoom() {
    engine.zoom = { k: 1, tx: 0, ty: 0 };
    applyZoom();
  }

  function onWheel(e: WheelEvent) {
    e.preventDefault();
    const stage = zoomBox.current?.parentElement;
    if (!stage) return;
    const r = stage.getBoundingClientRect();
    const z = engine.zoom;
    const k = Math.min(16, Math.max(1, z.k * (e.deltaY < 0 ? 1.25 : 0.8)));
    // Keep the point under the pointer where it is.
    const mx = e.clientX - r.left;
    const my = e.clientY - r.top;
    engine.zoom = { k, tx: mx - ((mx - z.tx) / z.k) * k, ty: my - ((my - z.ty) / z.k) * k };
    if (k === 1) engine.zoom = { k: 1, tx: 0, ty: 0 };
    applyZoom();
    redraw();
  }

  function onDown(e: MouseEvent) {
    if (e.button === 1 || (e.button === 0 && engine.spaceHeld)) {
      e.preventDefault();
      engine.pan = { x: e.clientX, y: e.clientY, tx: engine.zoom.tx, ty: engine.zoom.ty };
      engine.panned = true;
      return;
    }
    if (e.button !== 0) return;
    const { px, py, W, H, scale } = toCanvas(e);
    if (engine.tool === 'box' && writer) {
      engine.drawing = { x0: px / W, y0: py / H, x1: px / W, y1: py / H };
      return;
    }
    const sel = engine.selected;
    if (sel && writer) {
      const ix = sel.layer.index;
      const hit = corners(ix.x[sel.i]! * W, ix.y[sel.i]! * H, ix.w[sel.i]! * W, ix.h[sel.i]! * H).findIndex(
        ([cx, cy]) => Math.abs(cx - px) <= HANDLE * scale && Math.abs(cy - py) <= HANDLE * scale,
      );
      if (hit >= 0) {
        engine.drag = { kind: 'resize', corner: hit as Corner, dx: 0, dy: 0, moved: false };
        startDrag(sel);
        return;
      }
    }
    const ref = hitTest(engine.layers, engine.frame, px, py, W, H);
    selectBox(ref);
    if (ref && writer) {
      const ix = ref.layer.index;
      engine.drag = { kind: 'move', corner: 0, dx: px / W - ix.x[ref.i]!, dy: py / H - ix.y[ref.i]!, moved: false };
      startDrag(ref);
    }
  }

  function startDrag(ref: BoxRef) {
    const id = trackOf(ref).id;
    engine.dragBefore = snapshot(ref.layer.tracks, [id]);
    remember(ref.layer.baseline, ref.layer.tracks, [id]);
  }

  function onMove(e: MouseEvent) {
    if (engine.pan) {
      engine.zoom.tx = engine.pan.tx + e.clientX - engine.pan.x;
      engine.zoom.ty = engine.pan.ty + e.clientY - engine.pan.y;
      applyZoom();
      return;
    }
    const { px, py, W, H } = toCanvas(e);
    if (engine.drawing) {
      engine.drawing.x1 = Math.min(1, Math.max(0, px / W));
      engine.drawing.y1 = Math.min(1, Math.max(0, py / H));
      redraw();
      return;
    }
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
    engine.pan = undefined;
    const d = engine.drawing;
    if (d) {
      engine.drawing = undefined;
      addDrawnBox(Math.min(d.x0, d.x1), Math.min(d.y0, d.y1), Math.abs(d.x1 - d.x0), Math.abs(d.y1 - d.y0));
      redraw();
      return;
    }
    const sel = engine.selected;
    if (engine.drag?.moved && sel && engine.dragBefore) {
      // The moved box is a keyframe now: the frames between it and its neighbouring keyframes follow it.
      const track = trackOf(sel);
      interpolateAround(track, engine.frame);
      engine.history.push({
        layer: sel.layer,
        before: engine.dragBefore,
        after: snapshot(sel.layer.tracks, [track.id]),
      });
      afterChange(sel.layer, engine.dragBefore);
    }
    engine.drag = undefined;
    engine.dragBefore = undefined;
  }

  function onLeave() {
    onUp();
    if (!engine.hover) return;
    engine.hover = undefined;
    if (!engine.selected) setInspect(undefined);
    redraw();
  }

  /** Where new boxes go: the selected track's layer, else the chosen one, else the first layer. */
  function targetLayer(): Layer | undefined {
    return engine.selTrack?.layer ?? engine.layers.find((l) => l.runId === drawInto) ?? engine.layers[0];
  }

  // ——— keyboard: select, move and resize a box without a pointer ———
  /** Selects a box (the pointer's pick or the keyboard's), pausing on it, or none. */
  function selectBox(ref: BoxRef | undefined) {
    if (ref) engine.player?.pause();
    engine.selected = ref;
    engine.selTrack = ref ? { layer: ref.layer, id: trackOf(ref).id } : undefined;
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
    const track = trackOf(sel);
    edit(sel.layer, [track.id], () => {
      if (resize) resizeBox(sel.layer, i, 3, ix.x[i]! + ix.w[i]! + dx, ix.y[i]! + ix.h[i]! + dy);
      else moveBox(sel.layer, i, ix.x[i]! + dx, ix.y[i]! + dy);
      interpolateAround(track, engine.frame);
    });
  }

  // ——— edits: each one an undo step over the tracks it touches ———
  /** The track of a box (by id: indexes change with structural edits). */
  const trackOf = (ref: BoxRef): Track => ref.layer.tracks[ref.layer.index.track[ref.i]!]!;

  /** The box of track `id` on the current frame, if it has one. */
  function boxOfTrack(layer: Layer, id: string): BoxRef | undefined {
    const { index, tracks } = layer;
    const f = engine.frame;
    if (f < 0 || f >= index.frames) return undefined;
    for (let i = index.start[f]!; i < index.start[f + 1]!; i++)
      if (tracks[index.track[i]!]!.id === id) return { layer, i };
    return undefined;
  }

  /** After the tracks changed: the selection follows its track (by id) onto the current frame. */
  function reselect() {
    const st = engine.selTrack;
    if (st && !st.layer.tracks.some((t) => t.id === st.id)) engine.selTrack = undefined;
    engine.selected = engine.selTrack ? boxOfTrack(engine.selTrack.layer, engine.selTrack.id) : undefined;
    engine.hover = undefined;
    setInspect(engine.selected);
  }

  /** After an edit of `layer`; `edited` names the tracks it changed and holds them as they were (see reindex). */
  function afterChange(layer: Layer, edited?: TrackState[]) {
    if (edited) {
      const ids = new Set(edited.map((e) => e.id));
      engine.timeline?.forget(layer.tracks.filter((t) => ids.has(t.id)));
    }
    reindex(
      layer,
      edited && {
        ids: edited.map((s) => s.id),
        before: edited.flatMap((s) => (s.track ? [s.track] : [])),
      },
    );
    if (edited) {
      markChanged(
        layer.changed,
        layer.baseline,
        layer.tracks,
        edited.map((s) => s.id),
      );
      layer.edited = layer.changed.size > 0;
    } else layer.edited = !isEmptyPatch(buildPatch(layer.baseline, layer.tracks, layer.revision));
    reselect();
    const was = engine.shownBefore;
    engine.shownBefore = undefined;
    engine.dirty = edited && was?.layer === layer ? editedArea(layer, edited, was.shown) : undefined;
    layersChanged(true);
  }

  /**
   * The part of the overlay an edit of `layer` changed on the current frame: where the edited tracks (as they were,
   * `edited`, and as they are) draw their boxes, tags and trails, and the hover and selection outlines before and
   * after. Undefined (draw it all) when other boxes may look different too: when the boxes shown on the frame
   * changed, label tags go to other boxes; or when the part is most of the frame anyway.
   */
  function editedArea(layer: Layer, edited: TrackState[], shownBefore: Uint8Array): Rect | undefined {
    const c = overlay.current;
    if (!c || engine.compare || !sameShown(shownBefore, shownOnFrame(layer, engine.frame))) return undefined;
    const ctx = c.getContext('2d')!;
    const scale = c.width / (c.clientWidth || c.width);
    const opts = { frame: engine.frame, trail: engine.trail, scale };
    const ids = new Set(edited.map((s) => s.id));
    const areas = [...engine.marks, markArea(engine.hover, c.width, c.height, scale)];
    areas.push(markArea(engine.selected, c.width, c.height, scale));
    for (const s of edited) if (s.track) areas.push(trackArea(ctx, s.track, opts));
    for (const t of layer.tracks) if (ids.has(t.id)) areas.push(trackArea(ctx, t, opts));
    const r = unionArea(areas, c.width, c.height);
    return r && (r.x1 - r.x0) * (r.y1 - r.y0) <= (c.width * c.height) / 2 ? r : undefined;
  }

  /**
   * Runs one edit of `layer` that touches the tracks `ids` (new ids included, given before they exist) and
   * records it for undo. `change` returns false when it changed nothing.
   */
  function edit(layer: Layer, ids: string[], change: () => unknown) {
    const before = snapshot(layer.tracks, ids);
    const fresh = ids.filter((id) => !layer.baseline.has(id));
    remember(layer.baseline, layer.tracks, ids);
    const shown = shownOnFrame(layer, engine.frame);
    if (change() === false) {
      for (const id of fresh) layer.baseline.delete(id);
      return;
    }
    engine.shownBefore = { layer, shown };
    engine.history.push({ layer, before, after: snapshot(layer.tracks, ids) });
    afterChange(layer, before);
  }

  function undoRedo(redo: boolean) {
    const step = redo ? engine.history.redo() : engine.history.undo();
    if (!step) return;
    engine.shownBefore = { layer: step.layer, shown: shownOnFrame(step.layer, engine.frame) };
    applySnapshot(step.layer.tracks, redo ? step.after : step.before);
    // The index holds the state the step leaves: its other side.
    afterChange(step.layer, redo ? step.before : step.after);
  }

  /** The selected track, its layer and index, or undefined. */
  function selectedTrack() {
    const st = engine.selTrack;
    if (!st) return undefined;
    const index = st.layer.tracks.findIndex((t) => t.id === st.id);
    return index < 0 ? undefined : { layer: st.layer, id: st.id, index, track: st.layer.tracks[index]! };
  }

  function removeSelectedBox() {
    const sel = engine.selected;
    if (!sel) return;
    const track = trackOf(sel);
    const slot = sel.layer.index.slot[sel.i]!;
    edit(sel.layer, [track.id], () => {
      const t = sel.layer.tracks.find((x) => x.id === track.id)!;
      t.boxes.splice(slot, 1);
      // A track left without boxes goes too (the API refuses empty tracks).
      if (t.boxes.length === 0) sel.layer.tracks.splice(sel.layer.tracks.indexOf(t), 1);
    });
  }

  function removeSelectedTrack() {
    const t = selectedTrack();
    if (!t) return;
    edit(t.layer, [t.id], () => {
      t.layer.tracks.splice(t.index, 1);
    });
  }

  function removeFrames(from: number, to: number) {
    const t = selectedTrack();
    if (!t || !(from <= to)) return;
    edit(t.layer, [t.id], () => {
      if (!deleteFrames(t.track, from, to)) t.layer.tracks.splice(t.index, 1);
    });
  }

  function setLabel(label: string) {
    const t = selectedTrack();
    if (!t || !label.trim()) return;
    edit(t.layer, [t.id], () => relabel(t.track, label.trim()));
  }

  function split() {
    const t = selectedTrack();
    if (!t) return;
    const id = freshTrackId(t.layer.tracks, `${t.id}-split`);
    edit(t.layer, [t.id, id], () => splitTrack(t.layer.tracks, t.index, engine.frame, id) !== undefined);
    const st = engine.selTrack;
    if (st?.layer.tracks.some((x) => x.id === id)) setMessage(`Split: frames from ${engine.frame} on are track ${id}.`);
    else setMessage('Nothing to split: the track must have boxes before and from this frame.');
  }

  /** Merges the track typed by id into the selected one; what stands in the way, in words (else undefined). */
  function merge(otherId: string): string | undefined {
    const t = selectedTrack();
    if (!t) return 'Select a track first.';
    const problem = mergeProblem(t.layer.tracks, t.index, otherId);
    if (problem) return problem;
    const other = t.layer.tracks.findIndex((x) => x.id === otherId.trim());
    const from = t.layer.tracks[other]!.id;
    edit(t.layer, [t.id, from], () => mergeTracks(t.layer.tracks, t.index, other));
    setMessage(`Merged track ${from} into ${t.id}.`);
    return undefined;
  }

  /** `k`: toggles the selected box keyframe/interpolated; a selected track without a box here gets a keyframe. */
  function keyframe() {
    const t = selectedTrack();
    if (!t) return;
    const f = engine.frame;
    edit(t.layer, [t.id], () => {
      if (t.track.boxes.some((b) => b.frame === f)) toggleKeyframe(t.track, f);
      else return addKeyframe(t.track, f) !== undefined;
    });
  }

  /** The track list's click: selects the track, and seeks to its first box unless it has one on this frame. */
  function pickTrack(layer: Layer, id: string) {
    engine.selTrack = { layer, id };
    const track = layer.tracks.find((t) => t.id === id);
    engine.player?.pause();
    if (track && !track.boxes.some((b) => b.frame === engine.frame)) engine.player?.seek(track.boxes[0]?.frame ?? 0);
    reselect();
    redraw();
    bump();
  }

  /** A drawn rectangle (normalized) becomes a new track in the target layer. */
  function addDrawnBox(x: number, y: number, w: number, h: number) {
    const layer = targetLayer();
    if (!layer || w < 0.002 || h < 0.002) return;
    const id = freshTrackId(layer.tracks);
    const label = newLabel.trim() || 'object';
    edit(layer, [id], () => {
      addTrack(layer.tracks, id, label, { frame: engine.frame, x, y, w, h });
    });
    engine.selTrack = { layer, id };
    reselect();
    redraw();
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
    if (engine.selTrack?.layer === old) engine.selTrack = undefined;
  }

  /** Reads the layer again from the server; its unsaved corrections and their undo steps go. */
  async function reload(layer: Layer) {
    engine.history.forget(layer);
    if (engine.selTrack?.layer === layer) engine.selTrack = undefined;
    engine.selected = undefined;
    engine.hover = undefined;
    setInspect(undefined);
    replaceLayer(layer, await fetchRun(layer.runId));
    layersChanged(true);
  }

  async function save(layer: Layer, mode: SaveMode) {
    if (layer.tracks.length === 0) {
      setMessage('Every track of this layer was deleted: delete the layer instead.');
      return;
    }
    setBusy(true);
    setMessage(undefined);
    try {
      if (mode === 'replace') {
        // Only the tracks changed since the layer was loaded, against the revision it was loaded from.
        const patch = buildPatch(layer.baseline, layer.tracks, layer.revision);
        if (isEmptyPatch(patch)) {
          setMessage('Nothing to save: the layer is as it was loaded.');
          return;
        }
        const res = await call<{ revision: number; boxesStored: number; rejected: unknown[] }>(
          `/detections/${encodeURIComponent(layer.runId)}?mediaKey=${encodeURIComponent(mediaKey)}`,
          { method: 'PATCH', body: patch },
        );
        await reload(layer);
        const n = patch.tracks.upsert.length + patch.tracks.delete.length;
        setMessage(
          `Saved ${n} changed track${n === 1 ? '' : 's'} into ${layer.runId} (revision ${res.revision})${res.rejected.length ? `, ${res.rejected.length} boxes rejected` : ''}.`,
        );
      } else {
        const res = await call<{ runId: string; boxesStored: number; rejected: unknown[] }>('/detections', {
          method: 'POST',
          body: correctedRunBody(layer, mode, props.session.user.username),
        });
        // The original layer goes back to what the server holds; the corrections live in the new one.
        await reload(layer);
        engine.layers = [...engine.layers, makeLayer(await fetchRun(res.runId))];
        setMessage(
          `Saved ${res.boxesStored} boxes as the new layer ${res.runId}${res.rejected.length ? ` (${res.rejected.length} rejected)` : ''}.`,
        );
        layersChanged(true);
      }
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'revision_conflict') {
        const current = Number(err.body.currentRevision);
        setConflict({ layer, ...(Number.isFinite(current) ? { current } : {}) });
      } else setMessage(`Not saved: ${inWords(err)}`);
    } finally {
      setBusy(false);
    }
  }

  /** The conflict dialog's choices: the other person's version, or these corrections as a new layer. */
  async function resolveConflict(choice: 'reload' | 'new' | 'cancel') {
    const c = conflict;
    setConflict(undefined);
    if (!c || choice === 'cancel') return;
    if (choice === 'new') return save(c.layer, 'new');
    setBusy(true);
    try {
      await reload(c.layer);
      setMessage(`Reloaded ${c.layer.runId} as saved by someone else; your corrections were dropped.`);
    } catch (err) {
      setMessage(`Not reloaded: ${inWords(err)}`);
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
  const labels = [...new Set(engine.layers.flatMap((l) => [...l.labels.keys()]))].sort();
  const selTrack = selectedTrack();
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
        { class: 'stage', style: { aspectRatio: `${size.width} / ${size.height}` }, onWheel },
        h(
          'div',
          { class: 'zoom-box', ref: zoomBox },
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
            onAuxClick: (e: MouseEvent) => e.preventDefault(),
          }),
        ),
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
        h(
          'form',
          {
            class: 'goto',
            onSubmit: (e: Event) => {
              e.preventDefault();
              const input = (e.currentTarget as HTMLFormElement).querySelector('input')!;
              const f = Math.round(Number(input.value));
              if (!Number.isFinite(f)) return;
              engine.player?.pause();
              engine.player?.seek(Math.min(engine.frames - 1, Math.max(0, f)));
              input.blur();
            },
          },
          h('input', {
            class: 'goto-frame',
            type: 'number',
            min: 0,
            max: engine.frames - 1,
            'aria-label': 'Go to frame',
            placeholder: 'frame',
          }),
          h('button', { type: 'submit' }, 'Go'),
        ),
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
        'Space play/pause (held: drag to pan) · , . frame step · [ ] previous/next detection · g go to frame · click a box to select its track, drag to move, drag a corner to resize · b new box · k keyframe · s split · Delete box, Shift+Delete track · Ctrl+Z / Ctrl+Shift+Z undo/redo · wheel zoom, 0 reset · t labels · n / Shift+n next/previous box, arrows move it (Shift: 10 px), Alt+arrows resize it, Esc deselects',
      ),
      h(
        'div',
        { class: 'tools' },
        writer
          ? [
              h(
                'button',
                {
                  class: `tool-box${engine.tool === 'box' ? ' active' : ''}`,
                  'aria-pressed': engine.tool === 'box' ? 'true' : 'false',
                  onClick: () => setTool(engine.tool === 'box' ? 'select' : 'box'),
                  title: 'Drag on the frame to draw a new box (a new track) — key b',
                },
                'New box',
              ),
              h(
                'label',
                { class: 'control' },
                'Label',
                h('input', {
                  class: 'new-label',
                  list: 'run-labels',
                  value: newLabel,
                  placeholder: labels[0] ?? 'object',
                  onInput: (e: Event) => setNewLabel((e.target as HTMLInputElement).value),
                }),
              ),
              engine.layers.length > 1
                ? h(
                    'label',
                    { class: 'control' },
                    'into',
                    h(
                      'select',
                      {
                        class: 'draw-into',
                        value: targetLayer()?.runId,
                        onChange: (e: Event) => setDrawInto((e.target as HTMLSelectElement).value),
                      },
                      engine.layers.map((l) =>
                        h('option', { value: l.runId }, userTextPlain(`${layerName(l.run)} (${l.runId})`)),
                      ),
                    ),
                  )
                : null,
              h('button', { class: 'undo', disabled: !engine.history.canUndo, onClick: () => undoRedo(false) }, 'Undo'),
              h('button', { class: 'redo', disabled: !engine.history.canRedo, onClick: () => undoRedo(true) }, 'Redo'),
            ]
          : null,
        h(
          'label',
          { class: 'control' },
          h('input', {
            type: 'checkbox',
            class: 'show-labels',
            checked: engine.labels,
            onChange: (e: Event) => {
              engine.labels = (e.target as HTMLInputElement).checked;
              redraw();
            },
          }),
          ' Labels on boxes',
        ),
        h(
          'button',
          {
            class: 'zoom-reset',
            onClick: () => {
              resetZoom();
              redraw();
            },
          },
          'Reset zoom',
        ),
        h(
          'datalist',
          { id: 'run-labels' },
          labels.map((l) => h('option', { value: l })),
        ),
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
        selTrack && !engine.selected
          ? h(
              'p',
              { class: 'muted small' },
              'Track ',
              userText(selTrack.id),
              ` has no box on this frame (k adds a keyframe).`,
            )
          : null,
        selTrack && writer
          ? h(TrackTools, {
              key: `${selTrack.layer.runId}/${selTrack.id}`,
              track: selTrack.track,
              frame: engine.frame,
              hasBox: engine.selected !== undefined,
              labels,
              actions: { removeSelectedBox, removeSelectedTrack, removeFrames, setLabel, split, merge, keyframe },
            })
          : null,
      ),
      h(TrackList, { layers: engine.layers, selected: engine.selTrack, onPick: pickTrack }),
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
        exportOf: (l, name) => [
          h(RunExport, { token: props.session.token, runId: l.runId, mediaKey, name }),
          h(LayerRevisions, {
            key: `${l.runId}@${l.revision}`,
            call,
            runId: l.runId,
            mediaKey,
            name,
            canWrite: writer,
            edited: l.edited,
            onRestored: (revision, from) => {
              void reload(l).then(() => setMessage(`Restored revision ${from} of ${l.runId} as revision ${revision}.`));
            },
          }),
        ],
      }),
      conflict
        ? h(
            'div',
            { class: 'dialog-backdrop' },
            h(
              'div',
              { class: 'dialog conflict', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'conflict-title' },
              h('h2', { id: 'conflict-title' }, 'Someone else saved this layer meanwhile'),
              h(
                'p',
                null,
                `The layer ${conflict.layer.runId} was loaded at revision ${conflict.layer.revision}; it is now at revision ${conflict.current ?? 'a newer one'}. Your corrections were not saved.`,
              ),
              h(
                'div',
                { class: 'actions' },
                h(
                  'button',
                  { class: 'conflict-reload', onClick: () => void resolveConflict('reload') },
                  'Reload their version (drop mine)',
                ),
                h(
                  'button',
                  { class: 'conflict-new', onClick: () => void resolveConflict('new') },
                  'Save mine as a new layer',
                ),
                h('button', { class: 'conflict-cancel', onClick: () => void resolveConflict('cancel') }, 'Cancel'),
              ),
            ),
          )
        : null,
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

interface TrackActions {
  removeSelectedBox(): void;
  removeSelectedTrack(): void;
  removeFrames(from: number, to: number): void;
  setLabel(label: string): void;
  split(): void;
  /** What stands in the way of the merge, in words, or undefined once it is done. */
  merge(otherId: string): string | undefined;
  keyframe(): void;
}

/** The selected track's corrections: label, keyframe, split, merge, delete a box, a range or the track. */
function TrackTools(props: { track: Track; frame: number; hasBox: boolean; labels: string[]; actions: TrackActions }) {
  const a = props.actions;
  const [label, setLabel] = useState(trackLabel(props.track));
  const [other, setOther] = useState('');
  const [mergeError, setMergeError] = useState<string | undefined>();
  const [from, setFrom] = useState(String(props.track.boxes[0]?.frame ?? 0));
  const [to, setTo] = useState(String(props.track.boxes[props.track.boxes.length - 1]?.frame ?? 0));
  const box = props.track.boxes.find((b) => b.frame === props.frame);
  const submit = (fn: () => void) => (e: Event) => {
    e.preventDefault();
    fn();
  };
  return h(
    'div',
    { class: 'track-tools' },
    h(
      'form',
      { class: 'relabel', onSubmit: submit(() => a.setLabel(label)) },
      h('input', {
        class: 'track-label',
        list: 'run-labels',
        value: label,
        'aria-label': 'Label of the track',
        onInput: (e: Event) => setLabel((e.target as HTMLInputElement).value),
      }),
      h('button', { type: 'submit' }, 'Set label'),
    ),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { class: 'keyframe', onClick: a.keyframe, title: 'key k' },
        !box ? 'Add keyframe here' : box.interpolated ? 'Make keyframe' : 'Make interpolated',
      ),
      h('button', { class: 'split-track', onClick: a.split, title: 'key s' }, 'Split here'),
      props.hasBox ? h('button', { class: 'delete-box', onClick: a.removeSelectedBox }, 'Delete box') : null,
      h('button', { class: 'delete-track', onClick: a.removeSelectedTrack, title: 'Shift+Delete' }, 'Delete track'),
    ),
    h(
      'form',
      {
        class: 'merge',
        onSubmit: submit(() => {
          const problem = a.merge(other);
          setMergeError(problem);
          if (!problem) setOther('');
        }),
      },
      h('input', {
        class: 'merge-id',
        value: other,
        placeholder: 'track id',
        'aria-label': 'Id of the track to merge into this one',
        'aria-invalid': mergeError ? 'true' : undefined,
        'aria-describedby': mergeError ? 'merge-problem' : undefined,
        onInput: (e: Event) => {
          setOther((e.target as HTMLInputElement).value);
          setMergeError(undefined);
        },
      }),
      h('button', { type: 'submit' }, 'Merge into this track'),
      mergeError ? h('p', { id: 'merge-problem', class: 'merge-problem error', role: 'alert' }, mergeError) : null,
    ),
    h(
      'form',
      { class: 'delete-range', onSubmit: submit(() => a.removeFrames(Number(from), Number(to))) },
      'Frames ',
      h('input', {
        class: 'range-from',
        type: 'number',
        value: from,
        'aria-label': 'First frame to delete',
        onInput: (e: Event) => setFrom((e.target as HTMLInputElement).value),
      }),
      '–',
      h('input', {
        class: 'range-to',
        type: 'number',
        value: to,
        'aria-label': 'Last frame to delete',
        onInput: (e: Event) => setTo((e.target as HTMLInputElement).value),
      }),
      h('button', { type: 'submit' }, 'Delete frames'),
    ),
  );
}
