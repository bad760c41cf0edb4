// An S3-compatible server process for tests: s3rver on loopback, random port, its files in a temp folder.
// @20minutes/s3rver (a maintained fork of s3rver that runs on Node 20) checks SigV4 signatures: a wrongly signed
// request is refused with 403 SignatureDoesNotMatch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

export interface S3Server {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startS3rver(bucket = 'media-bucket'): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** s3rver's built-in credentials. */
export const S3RVER_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
