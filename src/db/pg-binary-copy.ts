// Reading one row's columns as raw bytes through `COPY (…) TO STDOUT (FORMAT binary)`. node-pg receives bytea as
// hex (or, selected through encode(), base64) text that must be decoded again; binary COPY sends the bytes as they
// are: a 14 MiB blob arrives in ~30 ms instead of ~140 ms as base64.
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { withDeadline } from './named-statements.js';

// PGCOPY\n\377\r\n\0, then a 32-bit flags field and a 32-bit header-extension length.
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The tuples of a binary COPY stream, read chunk by chunk as it arrives: each field is copied once into a buffer of
 * its own length (a 14 MiB blob was gathered as chunks, then copied again into one buffer). Pure.
 */
export class BinaryCopyReader {
  readonly rows: Array<Array<Buffer | null>> = [];
  /** Bytes of a fixed-size part (the signature, a count, a length) that a chunk cut. */
  private pending = Buffer.alloc(0);
  private state: 'signature' | 'extension' | 'count' | 'length' | 'field' | 'done' = 'signature';
  private extension = 0;
  private fields = 0;
  private row: Array<Buffer | null> = [];
  private field: Buffer | undefined;
  private filled = 0;

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'done') throw new Error('bytes after the end of a binary COPY stream');
      if (this.state === 'field') {
        const field = this.field!;
        const n = Math.min(field.length - this.filled, chunk.length - at);
        chunk.copy(field, this.filled, at, at + n);
        this.filled += n;
        at += n;
        if (this.filled === field.length) this.endField(field);
        continue;
      }
      const size = this.partSize();
      const take = Math.min(size - this.pending.length, chunk.length - at);
      const part = chunk.subarray(at, at + take);
      at += take;
      const head = this.pending.length === 0 && take === size ? part : Buffer.concat([this.pending, part]);
      if (head.length < size) {
        this.pending = Buffer.from(head);
        continue;
      }
      this.pending = Buffer.alloc(0);
      this.take(head);
    }
  }

  /** The rows, once the stream has ended with its trailer. */
  end(): Array<Array<Buffer | null>> {
    if (this.state !== 'done') throw new Error('a binary COPY stream ended early');
    return this.rows;
  }

  /** Bytes of the part the current state reads: the signature with flags and extension length, its extension, a
   * tuple's field count or a field's length. */
  private partSize(): number {
    if (this.state === 'signature') return 19;
    if (this.state === 'extension') return this.extension;
    return this.state === 'count' ? 2 : 4;
  }

  /** A complete fixed-size part for the current state. */
  private take(head: Buffer): void {
    switch (this.state) {
      case 'signature':
        if (!head.subarray(0, 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
        this.extension = head.readUInt32BE(15);
        this.state = this.extension > 0 ? 'extension' : 'count';
        return;
      case 'extension':
        this.state = 'count';
        return;
      case 'count':
        this.fields = head.readInt16BE(0);
        if (this.fields === -1) {
          this.state = 'done';
          return;
        }
        this.row = [];
        this.nextField();
        return;
      case 'length': {
        const length = head.readInt32BE(0);
        if (length === -1) {
          this.row.push(null);
          this.nextField();
          return;
        }
        const field = Buffer.allocUnsafe(length);
        if (length === 0) {
          this.endField(field);
          return;
        }
        this.field = field;
        this.filled = 0;
        this.state = 'field';
        return;
      }
    }
  }

  private endField(field: Buffer): void {
    this.row.push(field);
    this.field = undefined;
    this.nextField();
  }

  private nextField(): void {
    if (this.row.length < this.fields) {
      this.state = 'length';
      return;
    }
    this.rows.push(this.row);
    this.state = 'count';
  }
}

/** The tuples of a whole binary COPY stream, each a list of fields (null for SQL NULL). Pure. */
export function parseBinaryCopy(data: Buffer): Array<Array<Buffer | null>> {
  if (data.length < 19) throw new Error('not a binary COPY stream');
  const reader = new BinaryCopyReader();
  reader.push(data);
  return reader.end();
}

/**
 * The first row of `select`, a query whose literals the caller built with `literal` (COPY takes no bind
 * parameters), as raw column bytes; undefined when it returns no row. Under the same deadline as every other
 * statement (`deadlineMs`, 0 for none): node-pg's own timeouts do not cover a COPY, and a database gone silent on
 * it held the request, and its connection, for ever. Past the deadline the connection is dropped.
 */
export async function copyOutFirstRow(
  pool: pg.Pool,
  select: (literal: (value: string) => string) => string,
  deadlineMs = 0,
): Promise<Array<Buffer | null> | undefined> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await copyOutFirstRowOn(client, select, deadlineMs);
  } catch (err) {
    // A connection whose COPY failed half-way (or was cut at the deadline) is not handed to anyone else.
    failure = err as Error;
    throw err;
  } finally {
    client.release(failure);
  }
}

/** copyOutFirstRow on a connection the caller holds (a transaction of its own). */
export async function copyOutFirstRowOn(
  client: pg.PoolClient,
  select: (literal: (value: string) => string) => string,
  deadlineMs: number,
): Promise<Array<Buffer | null> | undefined> {
  return (await copyOutRowsOn(client, select, deadlineMs))[0];
}

/** Every row of `select` as raw column bytes, on a connection the caller holds. */
export function copyOutRowsOn(
  client: pg.PoolClient,
  select: (literal: (value: string) => string) => string,
  deadlineMs: number,
): Promise<Array<Array<Buffer | null>>> {
  const read = (async () => {
    const stream = client.query(copyTo(`COPY (${select((v) => client.escapeLiteral(v))}) TO STDOUT (FORMAT binary)`));
    const reader = new BinaryCopyReader();
    for await (const chunk of stream) reader.push(chunk as Buffer);
    return reader.end();
  })();
  return deadlineMs > 0 ? withDeadline(read, client, deadlineMs) : read;
}
