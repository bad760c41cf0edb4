// A directory on the service's disk. It has no URLs of its own: the service signs them and streams the files.
// Keys are checked by filenameProblem before they get here; the opened descriptor is checked again against the
// root, so a symbolic link (anywhere on the path) can never lead outside it.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../http/problem.js';
import { contentTypeFor } from '../content-type.js';
import { decideRange, notModified } from '../http-range.js';
import type { PutRequest, PutResult, ReadRequest, ReadResponse, StorageProvider } from './types.js';

const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR', 'ENAMETOOLONG', 'ENXIO']);

const notFound = () => new ApiError(404, 'object_not_found', 'No such object');

export class FsProvider implements StorageProvider {
  readonly type = 'fs' as const;
  private realRoot: string | undefined;

  constructor(readonly name: string, readonly root: string) {}

  nativeUrl(): undefined {
    return undefined;
  }

  private async resolvedRoot(): Promise<string> {
    if (this.realRoot) return this.realRoot;
    try {
      this.realRoot = await fsp.realpath(this.root);
      return this.realRoot;
    } catch {
      throw new ApiError(502, 'provider_unavailable', `Provider "${this.name}" cannot be reached: its directory is missing`, { provider: this.name });
    }
  }

  /** Where the descriptor really points: /proc on Linux (race-free), realpath elsewhere. */
  private async realPathOf(fd: number, full: string): Promise<string> {
    try {
      return await fsp.readlink(`/proc/self/fd/${fd}`);
    } catch {
      return fsp.realpath(full);
    }
  }

  async read(filename: string, request: ReadRequest): Promise<ReadResponse> {
    const root = await this.resolvedRoot();
    const full = path.join(root, ...filename.split('/'));
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      if (NOT_FOUND_CODES.has((err as NodeJS.ErrnoException).code ?? '')) throw notFound();
      throw new ApiError(502, 'provider_unavailable', `Provider "${this.name}" could not open the object`, { provider: this.name });
    }
    let handedOff = false;
    try {
      const real = await this.realPathOf(handle.fd, full);
      if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) throw notFound();
      const stat = await handle.stat();
      if (!stat.isFile()) throw notFound();
      const validators = {
        etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
        lastModified: stat.mtime,
      };
      const headers: Record<string, string> = {
        'content-type': contentTypeFor(filename),
        etag: validators.etag,
        'last-modified': stat.mtime.toUTCString(),
      };
      if (notModified(request, validators)) return { status: 304, headers };
      const range = decideRange(request, stat.size, validators);
      if (range.kind === 'unsatisfiable') {
        throw new ApiError(416, 'range_not_satisfiable', `The object has ${stat.size} bytes`, { size: stat.size }, { 'Content-Range': `bytes */${stat.size}` });
      }
      const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, stat.size - 1];
      headers['content-length'] = String(Math.max(0, end - start + 1));
      if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end}/${stat.size}`;
      const status = range.kind === 'partial' ? 206 : 200;
      if (request.method === 'HEAD' || stat.size === 0) return { status, headers };
      // The stream owns the descriptor from here and closes it when it ends or is destroyed (client gone).
      const body = handle.createReadStream({ start, end, highWaterMark: 256 * 1024 });
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
    if (!this.inside(root, real)) throw new ApiError(400, 'invalid_filename', 'The key leads outside the provider root');
    return { dir: real, base };
  }

  async put(filename: string, request: PutRequest): Promise<PutResult> {
    const parent = (await this.parentOf(filename, true))!;
    // Written beside the target and renamed into place: readers never see half a file.
    const temp = path.join(parent.dir, `.${parent.base}.${randomBytes(6).toString('hex')}.part`);
    const handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
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
    return { etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"` };
  }

  async delete(filename: string): Promise<void> {
    const parent = await this.parentOf(filename, false);
    if (!parent) return;
    await fsp.rm(path.join(parent.dir, parent.base), { force: true });
  }
}
