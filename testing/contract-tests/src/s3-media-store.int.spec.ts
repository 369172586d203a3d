import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3MediaStore } from '@voiceplane/adapter-media-store';
import { mediaStoreContract } from './media-store.contract';

// A local S3-compatible server on 127.0.0.1 (s3rver): the official SDK speaks real S3 requests to it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (
  options: Record<string, unknown>,
) => { run(): Promise<AddressInfo>; close(): Promise<void> };

const dir = mkdtempSync(join(tmpdir(), 'vp-s3rver-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: dir,
  configureBuckets: [{ name: 'vp-media' }],
});
let endpoint = '';
const stores: S3MediaStore[] = [];

beforeAll(async () => {
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const store of stores) store.destroy();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const store = (bucket = 'vp-media') => {
  const s = new S3MediaStore({
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  stores.push(s);
  return s;
};

mediaStoreContract('S3 (s3rver)', async () => store());

it('says why a bucket refused a file, without the credentials', async () => {
  const missing = store('no-such-bucket');
  const failure = await missing.put('med_x', [new Uint8Array(1)], 'text/plain').catch((e: Error) => e.message);
  expect(failure).toMatch(/^the media store refused the file: NoSuchBucket/);
  expect(failure).not.toContain('S3RVER');
});
