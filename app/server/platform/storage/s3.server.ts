import type { S3Client } from "@aws-sdk/client-s3";
import type { Env } from "../env.server";
import { isSafeKey, type Storage } from "./backend.server";

export type S3Config = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Base of the objects' public URLs; defaults to the endpoint and bucket. */
  publicUrl?: string;
};

export function s3ConfigFromEnv(env: Env): S3Config | null {
  if (!env.S3_ENDPOINT || !env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    publicUrl: env.S3_PUBLIC_URL,
  };
}

/** Where the bucket's objects are read by browsers, without a trailing slash. */
export function s3PublicBase(c: S3Config): string {
  if (c.publicUrl) return c.publicUrl.replace(/\/+$/, "");
  const endpoint = new URL(c.endpoint);
  const base = endpoint.href.replace(/\/+$/, "");
  if (c.forcePathStyle) return `${base}/${c.bucket}`;
  return `${endpoint.protocol}//${c.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/+$/, "")}`;
}

/**
 * An S3-compatible bucket (AWS, MinIO, R2, …). Objects are written with a year-long immutable
 * cache header: every upload gets a new name, so a cached copy is never stale. The bucket must
 * allow public reads (a bucket policy); no per-object ACL is set, since many stores refuse ACLs.
 */
export class S3Storage implements Storage {
  readonly kind = "s3" as const;
  readonly publicBase: string;
  #client: Promise<{ client: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | undefined;

  constructor(readonly config: S3Config) {
    this.publicBase = s3PublicBase(config);
  }

  // The SDK is loaded on first use, so a shop on disk storage never pays for it at start.
  private client() {
    this.#client ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: this.config.endpoint,
        region: this.config.region,
        forcePathStyle: this.config.forcePathStyle,
        credentials: { accessKeyId: this.config.accessKeyId, secretAccessKey: this.config.secretAccessKey },
        // Only send checksums when an operation requires one: many S3-compatible stores reject
        // the newer default trailing checksums.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
      }),
    }));
    return this.#client;
  }

  async put(key: string, body: Buffer, contentType: string) {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    const { client, sdk } = await this.client();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
        CacheControl: "public, max-age=31536000, immutable",
      }),
    );
    return { key, url: `${this.publicBase}/${key}` };
  }

  async delete(key: string) {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    const { client, sdk } = await this.client();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  async list(prefix: string) {
    const { client, sdk } = await this.client();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key && isSafeKey(o.Key)) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  keyFromUrl(url: string) {
    const prefix = `${this.publicBase}/`;
    if (!url.startsWith(prefix)) return null;
    const key = url.slice(prefix.length);
    return isSafeKey(key) ? key : null;
  }

  /** Reads an object back (tests and diagnostics). */
  async get(key: string): Promise<{ body: Buffer; contentType?: string } | null> {
    const { client, sdk } = await this.client();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      const bytes = await out.Body!.transformToByteArray();
      return { body: Buffer.from(bytes), contentType: out.ContentType };
    } catch (err) {
      if ((err as { name?: string }).name === "NoSuchKey") return null;
      throw err;
    }
  }
}
