// Files for the evaluation benchmark, written the way trackers and annotation tools write them. Deterministic
// (seeded), coordinates rounded to two decimals as MOTChallenge files usually are.
import fs from 'node:fs';
import path from 'node:path';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const W = 1920;
const H = 1080;
const r2 = (v: number) => Math.round(v * 100) / 100;

interface Walker {
  gtId: number;
  predId: number;
  end: number;
  x: number;
  y: number;
  w: number;
  h: number;
  vx: number;
  vy: number;
}

/**
 * One MOTChallenge sequence: about `objects` pedestrians a frame (each lives 100–600 frames, a new one replaces it),
 * and a tracker output that jitters the boxes (IoUs over HOTA's whole α range), misses 5 % of them, switches
 * identities now and then, and adds false positives (stray boxes and short false tracks).
 */
function motSequence(seed: number, frames: number, objects: number): { gt: string; pred: string } {
  const rand = rng(seed);
  const gt: string[] = [];
  const pred: string[] = [];
  let nextGt = 1;
  let nextPred = 1;
  const spawn = (frame: number): Walker => {
    const w = 30 + rand() * 90;
    const h = w * (2 + rand());
    return {
      gtId: nextGt++,
      predId: nextPred++,
      end: frame + 100 + Math.floor(rand() * 500),
      x: rand() * (W - w),
      y: rand() * (H - h),
      w,
      h,
      vx: (rand() - 0.5) * 4,
      vy: (rand() - 0.5) * 2,
    };
  };
  let live = Array.from({ length: objects }, () => spawn(1));
  let falseTracks: Walker[] = [];
  for (let f = 1; f <= frames; f++) {
    live = live.map((o) => (o.end < f ? spawn(f) : o));
    for (const o of live) {
      o.x = Math.min(W - o.w, Math.max(0, o.x + o.vx));
      o.y = Math.min(H - o.h, Math.max(0, o.y + o.vy));
      gt.push(`${f},${o.gtId},${r2(o.x)},${r2(o.y)},${r2(o.w)},${r2(o.h)},1,1,1`);
      if (rand() < 0.002) o.predId = nextPred++; // identity switch: the tracker starts a new id
      if (rand() < 0.05) continue; // missed
      const jitter = rand() < 0.8 ? 0.06 : 0.3;
      const dx = (rand() - 0.5) * jitter * o.w;
      const dy = (rand() - 0.5) * jitter * o.h;
      const sw = 1 + (rand() - 0.5) * jitter;
      const conf = r2(0.3 + rand() * 0.7);
      pred.push(`${f},${o.predId},${r2(o.x + dx)},${r2(o.y + dy)},${r2(o.w * sw)},${r2(o.h * sw)},${conf},-1,-1,-1`);
    }
    // Now and then two neighbours exchange identities.
    if (rand() < 0.05) {
      const a = live[Math.floor(rand() * live.length)]!;
      const b = live[Math.floor(rand() * live.length)]!;
      [a.predId, b.predId] = [b.predId, a.predId];
    }
    if (rand() < 0.02) falseTracks.push({ ...spawn(f), gtId: 0, end: f + 5 + Math.floor(rand() * 40) });
    falseTracks = falseTracks.filter((t) => t.end >= f);
    for (const t of falseTracks) {
      t.x = Math.min(W - t.w, Math.max(0, t.x + t.vx));
      pred.push(`${f},${t.predId},${r2(t.x)},${r2(t.y)},${r2(t.w)},${r2(t.h)},${r2(rand() * 0.5)},-1,-1,-1`);
    }
    const strays = Math.floor(rand() * 4);
    for (let k = 0; k < strays; k++) {
      const w = 30 + rand() * 60;
      pred.push(
        `${f},${nextPred++},${r2(rand() * (W - w))},${r2(rand() * (H - 2 * w))},${r2(w)},${r2(2 * w)},${r2(rand() * 0.5)},-1,-1,-1`,
      );
    }
  }
  return { gt: `${gt.join('\n')}\n`, pred: `${pred.join('\n')}\n` };
}

/** Writes `<dir>/gt/<seq>/{gt/gt.txt,seqinfo.ini}` and `<dir>/trackers/pred/data/<seq>.txt`; the sequence names. */
export function writeMotChallenge(dir: string, sequences: number, frames: number, objects: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < sequences; i++) {
    const name = `BENCH-${String(i + 1).padStart(2, '0')}`;
    const { gt, pred } = motSequence(1000 + i, frames, objects);
    fs.mkdirSync(path.join(dir, 'gt', name, 'gt'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'trackers', 'pred', 'data'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'gt', name, 'gt', 'gt.txt'), gt);
    fs.writeFileSync(
      path.join(dir, 'gt', name, 'seqinfo.ini'),
      `[Sequence]\nname=${name}\nimDir=img1\nframeRate=30\nseqLength=${frames}\nimWidth=${W}\nimHeight=${H}\nimExt=.jpg\n`,
    );
    fs.writeFileSync(path.join(dir, 'trackers', 'pred', 'data', `${name}.txt`), pred);
    names.push(name);
  }
  return names;
}

/**
 * A COCO instances file and a results file: `images` frames with 5–40 objects of three categories (all three area
 * ranges, a few crowd regions) and detections that jitter, miss and add false positives, scored, sometimes more
 * than 100 on an image.
 */
export function writeCoco(dir: string, images: number): { instances: string; results: string } {
  const rand = rng(7);
  const categories = [
    { id: 1, name: 'person' },
    { id: 2, name: 'car' },
    { id: 3, name: 'bicycle' },
  ];
  const imageRows: object[] = [];
  const annotations: object[] = [];
  const results: object[] = [];
  let annId = 1;
  const size = () => {
    const r = rand();
    return r < 0.3 ? 8 + rand() * 20 : r < 0.7 ? 35 + rand() * 55 : 100 + rand() * 300;
  };
  for (let i = 1; i <= images; i++) {
    imageRows.push({ id: i, width: W, height: H, file_name: `${String(i).padStart(6, '0')}.jpg` });
    const count = 5 + Math.floor(rand() * 36);
    for (let k = 0; k < count; k++) {
      const w = size();
      const h = w * (0.5 + rand() * 1.5);
      const x = rand() * (W - w);
      const y = rand() * (H - h);
      const category_id = 1 + Math.floor(rand() * 3);
      const iscrowd = rand() < 0.01 ? 1 : 0;
      const bbox = [r2(x), r2(y), r2(w), r2(h)];
      annotations.push({ id: annId++, image_id: i, category_id, bbox, area: r2(w * h), iscrowd });
      if (rand() < 0.1) continue;
      const j = rand() < 0.8 ? 0.08 : 0.4;
      results.push({
        image_id: i,
        category_id: rand() < 0.03 ? 1 + Math.floor(rand() * 3) : category_id,
        bbox: [r2(x + (rand() - 0.5) * j * w), r2(y + (rand() - 0.5) * j * h), r2(w * (1 + (rand() - 0.5) * j)), r2(h)],
        score: Math.round(rand() * 1000) / 1000,
      });
    }
    const strays = i % 50 === 0 ? 110 : Math.floor(rand() * 6);
    for (let k = 0; k < strays; k++) {
      const w = size();
      results.push({
        image_id: i,
        category_id: 1 + Math.floor(rand() * 3),
        bbox: [r2(rand() * (W - w)), r2(rand() * (H - w)), r2(w), r2(w)],
        score: Math.round(rand() * 600) / 1000,
      });
    }
  }
  const instances = path.join(dir, 'instances.json');
  const resultsFile = path.join(dir, 'results.json');
  fs.writeFileSync(instances, JSON.stringify({ images: imageRows, annotations, categories }));
  fs.writeFileSync(resultsFile, JSON.stringify(results));
  return { instances, results: resultsFile };
}
