// Provider credentials at rest: AES-256-GCM under a key derived from SIGHTLINE_MASTER_KEY, bound to the provider row.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

function deriveKey(masterKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, 'sightline', 'storage-provider-credentials', 32));
}

const keyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** `v1.<key id>.<iv>.<tag>.<ciphertext>`; `context` (the provider id) is authenticated, so rows cannot swap secrets. */
export function seal(masterKey: string, context: string, plaintext: string): string {
  const key = deriveKey(masterKey);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v1',
    keyId(key),
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ct.toString('base64url'),
  ].join('.');
}

export function open(masterKey: string, context: string, sealed: string): string {
  const [version, kid, iv, tag, ct] = sealed.split('.');
  if (version !== 'v1' || !kid || !iv || !tag || ct === undefined)
    throw new Error('stored provider credentials are corrupt');
  const key = deriveKey(masterKey);
  if (keyId(key) !== kid)
    throw new Error('stored provider credentials were sealed under a different SIGHTLINE_MASTER_KEY');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
