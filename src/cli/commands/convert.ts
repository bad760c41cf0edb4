// sightline convert: a file of one format to another, offline (no server, no store). The file goes through the
// import's own steps (the format's reader, validateRun, interpolation), so it converts as it would import, and the
// rows it could not read are reported as the import reports them.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import {
  FormatError,
  formatNames,
  formats,
  importRun,
  isFormatName,
  readBytes,
  readerFor,
  rejectionText,
  type ExportRun,
  type FormatName,
  type Position,
} from '../../formats/index.js';
import { UsageError, numberFlag, stringFlag } from '../args.js';
import type { CommandTable } from '../command.js';
import type { CliIo } from '../io.js';

/** The file could not be read at all, or the command line is wrong. */
const UNREADABLE = 2;
/** Some rows were rejected; the rest was written. */
const ROWS_REJECTED = 1;

function formatFlag(flags: Parameters<typeof stringFlag>[0], name: 'from' | 'to'): FormatName {
  const value = stringFlag(flags, name, true);
  if (!isFormatName(value)) throw new UsageError(`--${name} "${value}" is not a format: ${formatNames.join(', ')}`);
  return value;
}

/** `<input> [-o <output>]` in either order. */
function inputAndOutput(operands: string[]): { input: string; output?: string } {
  const rest = [...operands];
  let output: string | undefined;
  const o = rest.findIndex((w) => w === '-o' || w === '--output');
  if (o >= 0) {
    output = rest[o + 1];
    if (output === undefined) throw new UsageError('-o needs the output file');
    rest.splice(o, 2);
  }
  if (rest.length !== 1)
    throw new UsageError(rest.length === 0 ? 'name the input file (or - for standard input)' : 'give one input file');
  return { input: rest[0]!, ...(output !== undefined && output !== '-' ? { output } : {}) };
}

/** A folder (ultralytics' run folder) as the zip the yolo reader takes. */
async function zipFolder(root: string): Promise<Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files[relative(root, path).split('\\').join('/')] = await readFile(path);
    }
  };
  await walk(root);
  return zipSync(files, { level: 0 });
}

async function readInput(input: string, from: FormatName, io: CliIo): Promise<Uint8Array> {
  if (input === '-') {
    const chunks: Uint8Array[] = [];
    for await (const chunk of io.stdin ?? process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
  const info = await stat(input).catch(() => {
    throw new UsageError(`cannot read "${input}": no such file or folder`);
  });
  if (info.isDirectory()) {
    if (from !== 'yolo') throw new UsageError(`"${input}" is a folder; only --from yolo reads a folder`);
    return zipFolder(input);
  }
  return readFile(input);
}

const where = (position: Position | undefined) =>
  position === undefined
    ? ''
    : ` (${'line' in position ? `line ${position.line}` : 'index' in position ? `index ${position.index}` : 'element' in position ? position.element : `entry ${position.entry}`})`;

export const convertCommands: CommandTable = {
  convert: {
    usage:
      'convert --from <format> --to <format> [--width N --height N] [--flavor gt|results] [--interpolate] <input> [-o <output>]' +
      `   (offline; formats: ${formatNames.join(', ')}; input - is standard input, a folder for yolo)`,
    flags: ['from', 'to', 'width', 'height', 'flavor', 'interpolate'],
    operands: true,
    offline: true,
    async run({ flags, operands, io }) {
      const from = formatFlag(flags, 'from');
      const to = formatFlag(flags, 'to');
      const width = numberFlag(flags, 'width');
      const height = numberFlag(flags, 'height');
      if ((width === undefined) !== (height === undefined)) throw new UsageError('give --width and --height together');
      if ((width !== undefined && width <= 0) || (height !== undefined && height <= 0))
        throw new UsageError('--width and --height must be greater than 0');
      const flavor = stringFlag(flags, 'flavor');
      if (flavor !== undefined && flavor !== 'gt' && flavor !== 'results')
        throw new UsageError(`--flavor is gt or results, got "${flavor}"`);
      const { input, output } = inputAndOutput(operands);
      const frameSize = width !== undefined ? { width, height } : undefined;
      const bytes = await readInput(input, from, io);
      const fail = (message: string, position?: Position) => {
        io.stderr.write(`sightline convert: ${input}: ${message}${where(position)}\n`);
        return UNREADABLE;
      };

      let outcome: ReturnType<typeof importRun>;
      try {
        const read = readBytes(readerFor(from, { flavor, frameSize }), bytes);
        // No recording here: the run is validated as the import validates it, against a target that is never looked up.
        outcome = importRun(read, {
          target: { mediaKey: 'convert' },
          frameSize,
          interpolate: flags.interpolate === true,
        });
      } catch (err) {
        if (err instanceof FormatError) return fail(`${err.code}: ${err.message}`, err.position);
        throw err;
      }
      if (!outcome.ok) {
        const rejected = (outcome.extensions?.rejected ?? []) as Parameters<typeof rejectionText>[0][];
        for (const r of rejected) io.stderr.write(`sightline convert: ${input}: ${rejectionText(r)}\n`);
        fail(`${outcome.code}: ${outcome.detail}`);
        return rejected.length > 0 ? ROWS_REJECTED : UNREADABLE;
      }
      const { run, rejected } = outcome;
      for (const r of rejected) io.stderr.write(`sightline convert: ${input}: ${rejectionText(r)}\n`);
      for (const w of run.warnings) io.stderr.write(`sightline convert: ${input}: warning ${w.code}: ${w.message}\n`);

      const { runId: _generated, ...source } = run.meta.source;
      const exported: ExportRun = {
        boxes: run.boxes,
        ...(outcome.interpolated ? { interpolated: outcome.interpolated } : {}),
        // A runId the file did not have is not made up in the output.
        ...(run.meta.runIdGenerated ? {} : { runId: run.meta.runId }),
        ...(run.meta.name !== undefined ? { name: run.meta.name } : {}),
        source: run.meta.runIdGenerated ? source : run.meta.source,
        ...(run.meta.media ? { media: run.meta.media } : {}),
        ...(run.meta.categories ? { categories: run.meta.categories } : {}),
      };
      const pieces: Array<string | Uint8Array> = [];
      try {
        for (const piece of formats[to].writer(exported, { flavor, frameSize })) pieces.push(piece);
      } catch (err) {
        if (err instanceof FormatError) return fail(`${err.code}: ${err.message} (give --width and --height)`);
        throw err;
      }
      if (output !== undefined) await writeFile(output, pieces);
      else for (const piece of pieces) io.stdout.write(piece);
      return rejected.length > 0 ? ROWS_REJECTED : 0;
    },
  },
};
