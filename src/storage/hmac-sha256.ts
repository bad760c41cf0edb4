// HMAC-SHA256 (RFC 2104) for one key and many short messages: every URL the storage routes issue is one or two of
// these. `createHmac` spends most of its time building the native Hmac object; two one-shot `hash` calls over pads
// prepared once save 9–18% of a storage request (re-measured against createHmac: src/runtime/README.md). Pure.
import { createHmac, hash } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;
// Messages up to this many UTF-8 bytes take the fast path; longer ones (never a URL's) go through createHmac.
const CAPACITY = 4096;

// Shared scratch: the calls are synchronous, so no two of them ever use these at once.
const inner = Buffer.alloc(BLOCK + CAPACITY);
const outer = Buffer.alloc(BLOCK + DIGEST);

export type MacEncoding = 'hex' | 'base64' | 'base64url';

export class HmacSha256 {
  private readonly key: Buffer;
  private readonly ipad: Buffer;
  private readonly opad: Buffer;

  constructor(key: Buffer | string) {
    const raw = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
    // RFC 2104: a key longer than the block is replaced by its hash; a shorter one is padded with zeros.
    this.key = raw.length > BLOCK ? hash('sha256', raw, 'buffer') : raw;
    this.ipad = Buffer.alloc(BLOCK, 0x36);
    this.opad = Buffer.alloc(BLOCK, 0x5c);
    for (let i = 0; i < this.key.length; i++) {
      this.ipad[i]! ^= this.key[i]!;
      this.opad[i]! ^= this.key[i]!;
    }
  }

  digest(message: string, encoding: MacEncoding): string {
    if (message.length * 3 > CAPACITY) return createHmac('sha256', this.key).update(message, 'utf8').digest(encoding);
    this.ipad.copy(inner, 0);
    const length = inner.write(message, BLOCK, 'utf8');
    // 'latin1' hands the digest back as a 32-character string, one byte per character: no Buffer is allocated.
    const innerDigest = hash(
      'sha256',
      new Uint8Array(inner.buffer, inner.byteOffset, BLOCK + length),
      'latin1' as 'hex',
    );
    this.opad.copy(outer, 0);
    outer.write(innerDigest, BLOCK, 'latin1');
    return hash('sha256', outer, encoding);
  }

  /** The raw MAC, for keys derived from MACs (SigV4's signing key). */
  digestBytes(message: string): Buffer {
    return Buffer.from(this.digest(message, 'hex'), 'hex');
  }
}
