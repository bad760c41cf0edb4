// Native presigned URLs, byte for byte against the official SDKs (same inputs, fixed clock) and the published vectors.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
// The presigner's own dependencies, as it imports them.
import { HttpRequest } from '@smithy/core/protocols';
import { formatUrl } from '@aws-sdk/core/util';
import {
  BlobSASPermissions,
  StorageSharedKeyCredential,
  generateBlobSASQueryParameters,
  SASProtocol,
} from '@azure/storage-blob';
import { Storage } from '@google-cloud/storage';
import { S3Provider } from '../../src/storage/providers/s3.js';
import { presignV4 } from '../../src/storage/providers/sigv4.js';
import { AzureProvider, AZURE_SAS_VERSION } from '../../src/storage/providers/azure.js';
import { GcsProvider } from '../../src/storage/providers/gcs.js';

const AWS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const bytes = (d: string | ArrayBuffer | ArrayBufferView) =>
  typeof d === 'string'
    ? Buffer.from(d)
    : ArrayBuffer.isView(d)
      ? Buffer.from(d.buffer, d.byteOffset, d.byteLength)
      : Buffer.from(d);
/** The SDK's checksum constructor contract, on node:crypto. */
class Sha256 {
  private hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

const KEYS = [
  'alice/1700000000_cam1.mp4',
  'bob/a b+c&d=e.jpg',
  'dir/ünïcødé/名前.mp4',
  "x/!'()*~._-.txt",
  'top.txt',
  'a/%41%2F.txt',
];

async function sdkPresign(options: {
  bucket: string;
  key: string;
  region: string;
  endpoint?: string;
  pathStyle: boolean;
  expiresIn: number;
  now: number;
  sessionToken?: string;
}) {
  const presigner = new S3RequestPresigner({
    credentials: { ...AWS, ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}) },
    region: options.region,
    sha256: Sha256,
  });
  const base = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);
  // The SDK's own key encoding for S3 paths: every segment with encodeURIComponent plus !'()*.
  const encode = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const keyPath = options.key.split('/').map(encode).join('/');
  const request = new HttpRequest({
    protocol: base.protocol,
    hostname: options.pathStyle ? base.hostname : `${options.bucket}.${base.hostname}`,
    port: base.port ? Number(base.port) : undefined,
    method: 'GET',
    path: options.pathStyle ? `/${options.bucket}/${keyPath}` : `/${keyPath}`,
    headers: { host: options.pathStyle ? base.host : `${options.bucket}.${base.host}` },
  });
  const signed = await presigner.presign(request, { expiresIn: options.expiresIn, signingDate: new Date(options.now) });
  return formatUrl(signed);
}

describe('S3 SigV4 presigned URLs', () => {
  it('equal the AWS SDK presigner byte for byte, virtual-hosted and path-style, with and without a session token', async () => {
    const now = Date.parse('2024-03-05T06:07:08Z');
    for (const key of KEYS) {
      for (const variant of [
        { bucket: 'media-bucket', region: 'eu-west-1', pathStyle: false },
        { bucket: 'media-bucket', region: 'us-east-1', pathStyle: true, endpoint: 'http://127.0.0.1:9000' },
        {
          bucket: 'media-bucket',
          region: 'auto',
          pathStyle: true,
          endpoint: 'https://acct.r2.cloudflarestorage.com',
          sessionToken: 'FQoGZXIvYXdzE//token+/=',
        },
      ]) {
        const ours = new S3Provider(
          's3',
          variant,
          { ...AWS, ...(variant.sessionToken ? { sessionToken: variant.sessionToken } : {}) },
          1000,
        ).nativeUrl(key, Math.floor(now / 1000) + 3600, now);
        const theirs = await sdkPresign({ ...variant, key, expiresIn: 3600, now });
        expect(ours, `${key} ${JSON.stringify(variant)}`).toBe(theirs);
      }
    }
  });

  it('reproduces the presigned URL of the S3 documentation (examplebucket/test.txt) in its documented layout', () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html — the same signer, without the
    // SDK's hoisted X-Amz-Content-Sha256 parameter.
    const now = Date.parse('2013-05-24T00:00:00Z');
    const url = presignV4({
      method: 'GET',
      origin: 'https://examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      region: 'us-east-1',
      service: 's3',
      ...AWS,
      expiresIn: 86_400,
      now,
    });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z' +
        '&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });
});

describe('Azure service SAS URLs', () => {
  const accountKey = Buffer.from(createHash('sha512').update('sightline azure test key').digest()).toString('base64');

  it('equal @azure/storage-blob generateBlobSASQueryParameters for the same blob, permission, expiry and version', () => {
    const credential = new StorageSharedKeyCredential('acct', accountKey);
    for (const key of KEYS) {
      const expiresAt = 1_900_000_000;
      const url = new AzureProvider('az', { account: 'acct', container: 'videos' }, { accountKey }, 1000).nativeUrl(
        key,
        expiresAt,
      );
      const sdk = generateBlobSASQueryParameters(
        {
          containerName: 'videos',
          blobName: key,
          permissions: BlobSASPermissions.parse('r'),
          expiresOn: new Date(expiresAt * 1000),
          version: AZURE_SAS_VERSION,
        },
        credential,
      ).toString();
      const ours = url.slice(url.indexOf('?') + 1);
      expect(new URLSearchParams(ours).get('sig'), key).toBe(new URLSearchParams(sdk).get('sig'));
      expect(ours, key).toBe(sdk);
      // The blob path is ours (the signature does not cover it): each segment with only RFC 3986's unreserved characters
      // left as they are, stricter than the SDK's BlobClient, which leaves `!()*`.
      expect(url.slice(0, url.indexOf('?'))).toBe(
        `https://acct.blob.core.windows.net/videos/${key
          .split('/')
          .map((s) =>
            encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
          )
          .join('/')}`,
      );
    }
    expect(SASProtocol.Https).toBe('https');
  });

  it('signs the documented service-SAS string-to-sign (version 2020-12-06, 16 fields) with HMAC-SHA256 of the decoded key', () => {
    const url = new URL(
      new AzureProvider('az', { account: 'myaccount', container: 'pictures' }, { accountKey }, 1000).nativeUrl(
        'profile.jpg',
        1_900_000_000,
      ),
    );
    const toSign = [
      'r',
      '',
      '2030-03-17T17:46:40Z',
      '/blob/myaccount/pictures/profile.jpg',
      '',
      '',
      '',
      '2020-12-06',
      'b',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ].join('\n');
    expect(url.searchParams.get('sig')).toBe(
      createHmac('sha256', Buffer.from(accountKey, 'base64')).update(toSign).digest('base64'),
    );
  });
});

describe('GCS V4 signed URLs', () => {
  const key = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'gcs-conformance-key.json'), 'utf8'),
  );
  const provider = (bucket: string) =>
    new GcsProvider('gcs', { bucket, clientEmail: key.client_email }, { privateKey: key.private_key }, 1000);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reproduce Google's published conformance vectors (googleapis/conformance-tests storage/v1/v4_signatures.json)", () => {
    const vectors = [
      {
        bucket: 'test-bucket',
        object: 'test-object',
        expiration: 10,
        timestamp: '2019-02-01T09:00:00Z',
        signature:
          '95e6a13d43a1d1962e667f17397f2b80ac9bdd1669210d5e08e0135df9dff4e56113485dbe429ca2266487b9d1796ebdee2d7cf682a6ef3bb9fbb4c351686fba90d7b621cf1c4eb1fdf126460dd25fa0837dfdde0a9fd98662ce60844c458448fb2b352c203d9969cb74efa4bdb742287744a4f2308afa4af0e0773f55e32e92973619249214b97283b2daa14195244444e33f938138d1e5f561088ce8011f4986dda33a556412594db7c12fc40e1ff3f1bedeb7a42f5bcda0b9567f17f65855f65071fabb88ea12371877f3f77f10e1466fff6ff6973b74a933322ff0949ce357e20abe96c3dd5cfab42c9c83e740a4d32b9e11e146f0eb3404d2e975896f74',
      },
      {
        bucket: 'test-bucket',
        object: 'test-object',
        expiration: 20,
        timestamp: '2019-03-01T09:00:00Z',
        signature:
          '9669ed5b10664dc594c758296580662912cf4bcc5a4ba0b6bf055bcbf6f34eed7bdad664f534962174a924741a0c273a4f67bc1847cef20192a6beab44223bd9d4fbbd749c407b79997598c30f82ddc269ff47ec09fa3afe74e00616d438df0d96a7d8ad0adacfad1dc3286f864d924fe919fb0dce45d3d975c5afe8e13af2db9cc37ba77835f92f7669b61e94c6d562196c1274529e76cfff1564cc2cad7d5387dc8e12f7a5dfd925685fe92c30b43709eee29fa2f66067472cee5423d1a3a4182fe8cea75c9329d181dc6acad7c393cd04f8bf5bc0515127d8ebd65d80c08e19ad03316053ea60033fd1b1fd85a69c576415da3bf0a3718d9ea6d03e0d66f0',
      },
      {
        bucket: 'test-bucket2',
        object: 'test-object2',
        expiration: 10,
        timestamp: '2019-02-01T09:00:00Z',
        signature:
          '36e3d58dfd3ec1d2dd2f24b5ee372a71e811ffaa2162a2b871d26728d0354270bc116face87127532969c4a3967ed05b7309af741e19c7202f3167aa8c2ac420b61417d6451442bb91d7c822cd17be8783f01e05372769c88913561d27e6660dd8259f0081a71f831be6c50283626cbf04494ac10c394b29bb3bce74ab91548f58a37118a452693cf0483d77561fc9cac8f1765d2c724994cca46a83517a10157ee0347a233a2aaeae6e6ab5e204ff8fc5f54f90a3efdb8301d9fff5475d58cd05b181affd657f48203f4fb133c3a3d355b8eefbd10d5a0a5fd70d06e9515460ad74e22334b2cba4b29cae4f6f285cdb92d8f3126d7a1479ca3bdb69c207d860',
      },
    ];
    for (const v of vectors) {
      const now = Date.parse(v.timestamp);
      const date = v.timestamp.replace(/[-:]/g, '');
      expect(provider(v.bucket).nativeUrl(v.object, Math.floor(now / 1000) + v.expiration, now)).toBe(
        `https://storage.googleapis.com/${v.bucket}/${v.object}` +
          `?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=test-iam-credentials%40dummy-project-id.iam.gserviceaccount.com%2F${date.slice(0, 8)}%2Fauto%2Fstorage%2Fgoog4_request` +
          `&X-Goog-Date=${date}&X-Goog-Expires=${v.expiration}&X-Goog-SignedHeaders=host&X-Goog-Signature=${v.signature}`,
      );
    }
  });

  it('equal @google-cloud/storage getSignedUrl (v4, read) for the same key, object and clock', async () => {
    const now = Date.parse('2024-03-05T06:07:08Z');
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const storage = new Storage({
      projectId: 'dummy-project-id',
      credentials: { client_email: key.client_email, private_key: key.private_key },
    });
    for (const object of KEYS) {
      const [sdk] = await storage
        .bucket('media-bucket')
        .file(object)
        .getSignedUrl({ version: 'v4', action: 'read', expires: now + 3600_000 });
      expect(provider('media-bucket').nativeUrl(object, Math.floor(now / 1000) + 3600, now), object).toBe(sdk);
    }
  });
});
