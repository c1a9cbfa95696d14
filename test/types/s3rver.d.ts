/** The part of s3rver (a local S3-compatible server, npm) that the object-storage tests use; it ships no types. */
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      port: number;
      address: string;
      silent: boolean;
      directory: string;
      configureBuckets: Array<{ name: string; configs: unknown[] }>;
    });
    run(): Promise<unknown>;
    close(): Promise<void>;
  }
}
