// The evaluator's file system side: which files make which sequence, read into the pure parsers of
// src/evaluation/inputs. A file that cannot be read is bad input, reported as the parsers report theirs.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../../evaluation/inputs/input-error.js';
import type { MotSequenceFiles } from '../../evaluation/inputs/mot-sequences.js';
import { parseMotText } from '../../evaluation/inputs/mot-text.js';
import { parseSeqInfo } from '../../evaluation/inputs/seqinfo.js';

/** A file's text, without the byte-order mark some Windows tools write (JSON.parse and the ini reader would stop at it). */
export function readText(file: string): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : (err as Error).message;
    throw new InputError(file, undefined, reason);
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    throw new InputError(p, undefined, 'no such file or folder');
  }
}

const stem = (file: string): string => path.basename(file, path.extname(file));

interface GtSource {
  name: string;
  file: string;
  seqinfo?: string;
}

/** A gt folder: `<seq>/gt/gt.txt` (with `<seq>/seqinfo.ini` when present) and `<seq>.txt` files. */
function gtSources(dir: string): GtSource[] {
  const out: GtSource[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const file = path.join(at, 'gt', 'gt.txt');
      if (!fs.existsSync(file)) continue;
      const ini = path.join(at, 'seqinfo.ini');
      out.push({ name: entry.name, file, ...(fs.existsSync(ini) ? { seqinfo: ini } : {}) });
    } else if (entry.name.endsWith('.txt')) out.push({ name: stem(entry.name), file: at });
  }
  if (out.length === 0) throw new InputError(dir, undefined, 'holds no <seq>.txt file and no <seq>/gt/gt.txt');
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The MOTChallenge sequences of `--gt` and `--pred`, paired by name. */
export function motFiles(gtPath: string, predPath: string): MotSequenceFiles[] {
  const gtIsDir = isDirectory(gtPath);
  const predIsDir = isDirectory(predPath);
  const gts = gtIsDir ? gtSources(gtPath) : [{ name: stem(gtPath), file: gtPath } as GtSource];
  const preds = new Map<string, string>();
  if (predIsDir) {
    for (const entry of fs.readdirSync(predPath, { withFileTypes: true }))
      if (entry.isFile() && entry.name.endsWith('.txt')) preds.set(stem(entry.name), path.join(predPath, entry.name));
  } else preds.set(gtIsDir ? stem(predPath) : gts[0]!.name, predPath);
  const names = new Set(gts.map((g) => g.name));
  for (const [name, file] of preds) {
    if (!names.has(name))
      throw new InputError(file, undefined, `no ground-truth sequence named "${name}" in ${gtPath}`);
  }
  return gts.map((g) => {
    const predFile = preds.get(g.name);
    const seqLength = g.seqinfo ? parseSeqInfo(readText(g.seqinfo), g.seqinfo).seqLength : undefined;
    return {
      name: g.name,
      gt: parseMotText(readText(g.file), g.file),
      ...(predFile ? { pred: parseMotText(readText(predFile), predFile) } : {}),
      ...(seqLength !== undefined ? { seqLength } : {}),
    };
  });
}
