// A directory on the service's disk. It has no URLs of its own: the service signs them and streams the files.
// Keys are checked by filenameProblem before they get here; the opened descriptor is checked again against the
// root, so a symbolic link (anywhere on the path) can never lead outside it.
import { randomBytes } from 'node:crypto';
import { constants, existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../http/problem.js';
import { contentTypeFor } from '../content-type.js';
import { decideRange, notModified, preconditionFailed } from '../http-range.js';
import type { PutRequest, PutResult, ReadRequest, ReadResponse, StorageProvider } from './types.js';

/** Whether an opened descriptor's real path can be read without a race (Linux's /proc). */
const PROC_FD = existsSync('/proc/self/fd');
const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR', 'ENAMETOOLONG', 'ENXIO']);

const notFound = () => new ApiError(404, 'object_not_found', 'No such object');

/**
 * An upload's temporary file (put, below): a short name of its own, since the key's last segment may already use
 * all 255 bytes a name can have.
 */
const uploadPartName = () => `.sightline-${randomBytes(6).toString('hex')}.part`;
const UPLOAD_PART = /^\.sightline-[0-9a-f]{12}\.part$/;
const STALE_PART_MS = 24 * 3600 * 1000;

/**
 * Temporary files of uploads killed midway (SIGKILL leaves no chance to remove them), a day old or more: an upload
 * still running rewrites its file all the time. Best effort; found where the next upload into that folder goes.
 */
async function removeStaleParts(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  const cutoff = Date.now() - STALE_PART_MS;
  await Promise.all(
    names
      .filter((name) => UPLOAD_PART.test(name))
      .map(async (name) => {
        const file = path.join(dir, name);
        const stat = await fsp.lstat(file).catch(() => undefined);
        if (stat?.isFile() && stat.mtimeMs < cutoff) await fsp.rm(file, { force: true }).catch(() => {});
      }),
  );
}

const CHUNK = 256 * 1024;

/**
 * Size, mtime and ctime: a file replaced by one of the same size with its mtime copied (`cp -p`, `rsync -t`) still
 * gets a new ETag, as the kernel sets ctime on every change and nobody can set it back.
 */
function etagOf(stat: { size: number; mtimeMs: number; ctimeMs: number }): string {
  return `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}-${Math.floor(stat.ctimeMs * 1000).toString(16)}"`;
}

/**
 * Bytes start..end of an open file, closing it when done or destroyed (the client went away). A file that shrinks
 * meanwhile is an error, not an early end: the answer's Content-Length promised more, and an error makes the
 * server drop the connection at once where a quiet end would leave the client waiting for bytes that never come.
 */
function fileRange(handle: fsp.FileHandle, start: number, end: number): Readable {
  async function* chunks() {
    for (let position = start; position <= end; ) {
      const length = Math.min(CHUNK, end - position + 1);
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
      if (bytesRead === 0) throw new Error(`the file ended ${end - position + 1} bytes short of what was announced`);
      position += bytesRead;
      yield bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
    }
  }
  const stream = Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK });
  // On close rather than in the generator: one destroyed before its first read never runs the generator's code.
  // FileHandle.close waits for a read in flight.
  stream.once('close', () => {
    handle.close().catch(() => {});
  });
  return stream;
}

export class FsProvider implements StorageProvider {
  readonly type = 'fs' as const;
  private realRoot: string | undefined;

  constructor(
    readonly name: string,
    readonly root: string,
  ) {}

  nativeUrl(): undefined {
    return undefined;
  }

  private async resolvedRoot(): Promise<string> {
    if (this.realRoot) return this.realRoot;
    try {
      this.realRoot = await fsp.realpath(this.root);
      return this.realRoot;
    } catch (err) {
      throw new ApiError(
        502,
        'provider_unavailable',
        `Provider "${this.name}" cannot be reached: its directory is missing`,
        { provider: this.name },
      ).withCause(err);
    }
  }

  /**
   * Where the descriptor really points: /proc on Linux (race-free), realpath elsewhere. Where /proc answers, a link
   * on the last segment may be followed (one that stays inside the root is served like its target: the check is on
   * the opened file); elsewhere it is not followed at all, as realpath could race with a swap of the link.
   */
  private async realPathOf(fd: number, full: string): Promise<string> {
    try {
      return await fsp.readlink(`/proc/self/fd/${fd}`);
    } catch {
      return fsp.realpath(full);
    }
  }

  async read(filename: string, request: ReadRequest): Promise<ReadResponse> {
    // An upload's temporary file is no object: one left by an upload killed midway holds part of a file.
    if (UPLOAD_PART.test(filename.slice(filename.lastIndexOf('/') + 1))) throw notFound();
    const root = await this.resolvedRoot();
    const full = path.join(root, ...filename.split('/'));
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(full, constants.O_RDONLY | constants.O_NONBLOCK | (PROC_FD ? 0 : constants.O_NOFOLLOW));
    } catch (err) {
      if (NOT_FOUND_CODES.has((err as NodeJS.ErrnoException).code ?? '')) throw notFound();
      throw new ApiError(502, 'provider_unavailable', `Provider "${this.name}" could not open the object`, {
        provider: this.name,
      }).withCause(err);
    }
    let handedOff = false;
    try {
      const real = await this.realPathOf(handle.fd, full);
      if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) throw notFound();
      const stat = await handle.stat();
      if (!stat.isFile()) throw notFound();
      // Never later than the answer's Date (RFC 9110 §8.8.2.1): a file stamped in the future is "modified now".
      const lastModified = new Date(Math.min(stat.mtimeMs, Date.now()));
      const validators = { etag: etagOf(stat), lastModified };
      const headers: Record<string, string> = {
        'content-type': contentTypeFor(filename),
        etag: validators.etag,
        'last-modified': lastModified.toUTCString(),
      };
      if (preconditionFailed(request, validators)) {
        throw new ApiError(
          412,
          'precondition_failed',
          'The object is not the version the request names (If-Match / If-Unmodified-Since)',
          {},
          { ETag: validators.etag },
        );
      }
      if (notModified(request, validators)) return { status: 304, headers };
      const range = decideRange(request, stat.size, validators);
      if (range.kind === 'unsatisfiable') {
        throw new ApiError(
          416,
          'range_not_satisfiable',
          `The object has ${stat.size} bytes`,
          { size: stat.size },
          { 'Content-Range': `bytes */${stat.size}` },
        );
      }
      const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, stat.size - 1];
      headers['content-length'] = String(Math.max(0, end - start + 1));
      if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end}/${stat.size}`;
      const status = range.kind === 'partial' ? 206 : 200;
      if (request.method === 'HEAD' || stat.size === 0) return { status, headers };
      // The stream owns the descriptor from here and closes it when it ends or is destroyed (client gone).
      const body = fileRange(handle, start, end);
      handedOff = true;
      return { status, headers, body };
    } finally {
      if (!handedOff) await handle.close().catch(() => {});
    }
  }

  private inside(root: string, real: string): boolean {
    return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  }

  /** The key's parent directory, created if needed, and checked to really lie inside the root. */
  private async parentOf(filename: string, create: boolean): Promise<{ dir: string; base: string } | undefined> {
    const root = await this.resolvedRoot();
    const segments = filename.split('/');
    const base = segments.pop()!;
    const dir = path.join(root, ...segments);
    if (create) await fsp.mkdir(dir, { recursive: true });
    let real: string;
    try {
      real = await fsp.realpath(dir);
    } catch {
      return undefined;
    }
    if (!this.inside(root, real))
      throw new ApiError(400, 'invalid_filename', 'The key leads outside the provider root');
    return { dir: real, base };
  }

  async put(filename: string, request: PutRequest): Promise<PutResult> {
    const parent = (await this.parentOf(filename, true))!;
    // Written beside the target and renamed into place: readers never see half a file.
    await removeStaleParts(parent.dir);
    const temp = path.join(parent.dir, uploadPartName());
    const handle = await fsp.open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o644,
    );
    try {
      await pipeline(request.body, handle.createWriteStream());
      await fsp.rename(temp, path.join(parent.dir, parent.base));
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    } finally {
      await handle.close().catch(() => {});
    }
    const stat = await fsp.lstat(path.join(parent.dir, parent.base));
    return { etag: etagOf(stat) };
  }

  async delete(filename: string): Promise<void> {
    const parent = await this.parentOf(filename, false);
    if (!parent) return;
    await fsp.rm(path.join(parent.dir, parent.base), { force: true });
  }
}
