/** A MOTChallenge `seqinfo.ini`: the `[Sequence]` section's keys; the evaluator reads `seqLength` (the frame count). */
import { InputError } from './input-error.js';

export interface SeqInfo {
  values: Record<string, string>;
  seqLength?: number;
}

export function parseSeqInfo(text: string, file: string): SeqInfo {
  const values: Record<string, string> = {};
  let section = '';
  let lengthLine = 0;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const head = /^\[(.*)\]$/.exec(line);
    if (head) {
      section = head[1]!.trim();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) throw new InputError(file, n + 1, 'expected key=value or a [section] header');
    if (section !== 'Sequence') continue;
    const key = line.slice(0, eq).trim();
    values[key] = line.slice(eq + 1).trim();
    if (key === 'seqLength') lengthLine = n + 1;
  }
  if (values.seqLength === undefined) return { values };
  const seqLength = /^\d+$/.test(values.seqLength) ? Number(values.seqLength) : Number.NaN;
  if (!(seqLength >= 1))
    throw new InputError(file, lengthLine, `seqLength must be a positive integer, got "${values.seqLength}"`);
  return { values, seqLength };
}
