import { PassThrough, type Readable } from 'node:stream';
import type { ReportStore } from '../../platform/ports.ts';

/**
 * Report files on S3-compatible object storage (issue 37: several nodes without a shared disk), through the
 * official AWS SDK, loaded on first use so that a node on the local store never loads it.
 *
 * - An upload is a multipart upload of the stream (lib-storage's Upload): the object appears whole when the
 *   upload completes and never before, as the file store's rename does. An upload that dies leaves parts the
 *   sweep aborts (or the bucket's AbortIncompleteMultipartUpload rule, advised in docs/operations.md).
 * - A download streams the object's body.
 * - The sweep lists the objects under the prefix and deletes those older than the longest retention.
 * - Checksums are sent and checked only where S3 requires them (`WHEN_REQUIRED`), so that S3-compatible servers
 *   that predate the SDK's default CRC32 trailers (older MinIO, Ceph) work.
 */
export type S3StoreConfig = {
  bucket: string;
  region: string;
  /** An S3-compatible server's URL (MinIO, Ceph, Garage…); AWS's own endpoint when absent. */
  endpoint: string | null;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Static credentials; when absent, the SDK's default chain (environment, instance role, profile). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Prepended to every key, so that one bucket can serve several deployments. */
  prefix: string;
};

type Sdk = typeof import('@aws-sdk/client-s3');

export function s3Store(config: S3StoreConfig): ReportStore {
  let loaded: Promise<{
    sdk: Sdk;
    client: InstanceType<Sdk['S3Client']>;
    Upload: typeof import('@aws-sdk/lib-storage').Upload;
  }> | null = null;
  const load = () => {
    loaded ??= (async () => {
      const [sdk, storage] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/lib-storage'),
      ]);
      const client = new sdk.S3Client({
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
        ...(config.credentials === null ? {} : { credentials: config.credentials }),
      });
      return { sdk, client, Upload: storage.Upload };
    })();
    return loaded;
  };
  const keyOf = (key: string) => `${config.prefix}${key}`;
  const Bucket = config.bucket;
  return {
    async put(key, content) {
      const { client, Upload } = await load();
      let size = 0;
      const counted = new PassThrough();
      counted.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      content.on('error', (error) => counted.destroy(error));
      content.pipe(counted);
      await new Upload({ client, params: { Bucket, Key: keyOf(key), Body: counted } }).done();
      return size;
    },
    async get(key) {
      const { sdk, client } = await load();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return (object.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NotFound') return null;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await load();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async sweep({ partialBefore, fileBefore }) {
      const { sdk, client } = await load();
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket, Prefix: config.prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (
            object.Key !== undefined &&
            object.LastModified !== undefined &&
            object.LastModified < fileBefore
          ) {
            await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: object.Key }));
            removed += 1;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      // Uploads that never completed (a node killed mid-report): their parts cost storage until aborted.
      try {
        const uploads = await client.send(
          new sdk.ListMultipartUploadsCommand({ Bucket, Prefix: config.prefix }),
        );
        for (const upload of uploads.Uploads ?? []) {
          if (upload.Initiated !== undefined && upload.Initiated < partialBefore) {
            await client.send(
              new sdk.AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
            );
            removed += 1;
          }
        }
      } catch (error) {
        // A server without the listing (some S3-compatible ones): the bucket's lifecycle rule does it instead.
        if ((error as { name?: string }).name !== 'NotImplemented') throw error;
      }
      return removed;
    },
  };
}
