import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small S3-compatible server on 127.0.0.1 for tests: path-style PutObject, GetObject,
 * HeadObject, DeleteObject and ListObjectsV2 (by prefix, one page), with AWS Signature V4 checked on every signed request (so a wrong
 * key or a broken signature fails like on a real store). Anonymous GETs are answered too, as a
 * public-read bucket answers browsers.
 *
 * Why not s3rver: its last release is from 2021 and pulls in a web framework and a dozen
 * dependencies; the four operations the shop uses fit in this file.
 */
export type FakeObject = { body: Buffer; contentType: string; cacheControl: string | undefined };

export type FakeS3 = {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  buckets: Map<string, Map<string, FakeObject>>;
  requests: { method: string; path: string; status: number }[];
  /** The next n write requests answer 500 (to test failures). */
  failNextWrites(n: number): void;
  close(): Promise<void>;
};

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

function verifySignature(req: http.IncomingMessage, body: Buffer, accessKeyId: string, secret: string): string | null {
  const auth = req.headers.authorization ?? "";
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return "malformed Authorization header";
  const [, keyId, date, region, signedHeaders, signature] = m as unknown as string[];
  if (keyId !== accessKeyId) return "InvalidAccessKeyId";
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) return "XAmzContentSHA256Mismatch";
  const [rawPath, rawQuery = ""] = (req.url ?? "/").split("?");
  const query = rawQuery
    .split("&")
    .filter(Boolean)
    .map((p) => (p.includes("=") ? p : `${p}=`))
    .sort()
    .join("&");
  const headerLines = signedHeaders!
    .split(";")
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonical = [req.method, rawPath, query, headerLines, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", String(req.headers["x-amz-date"]), scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), "s3"), "aws4_request");
  const expected = createHmac("sha256", key).update(toSign).digest("hex");
  return expected === signature ? null : "SignatureDoesNotMatch";
}

export async function startFakeS3(opts: { buckets?: string[] } = {}): Promise<FakeS3> {
  const accessKeyId = "TESTACCESSKEY";
  const secretAccessKey = "test-secret-key-for-the-fake-s3";
  const buckets = new Map<string, Map<string, FakeObject>>(
    (opts.buckets ?? ["site-assets"]).map((b) => [b, new Map()]),
  );
  const requests: FakeS3["requests"] = [];
  let failWrites = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    const [, bucketName = "", ...rest] = path.split("/");
    const key = rest.join("/");
    const send = (status: number, payload: string | Buffer = "", headers: Record<string, string> = {}) => {
      requests.push({ method: req.method ?? "", path, status });
      res.writeHead(status, { "x-amz-request-id": "fake", ...headers });
      res.end(req.method === "HEAD" ? undefined : payload);
    };

    const anonymousRead = !req.headers.authorization && (req.method === "GET" || req.method === "HEAD");
    if (!anonymousRead) {
      const problem = verifySignature(req, body, accessKeyId, secretAccessKey);
      if (problem)
        return send(403, xmlError(problem, "request refused by the fake S3"), { "content-type": "application/xml" });
    }
    const bucket = buckets.get(bucketName);
    if (!bucket)
      return send(404, xmlError("NoSuchBucket", "The specified bucket does not exist"), {
        "content-type": "application/xml",
      });
    const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
    if (!key && req.method === "GET" && query.get("list-type") === "2") {
      const prefix = query.get("prefix") ?? "";
      const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      const contents = [...bucket.entries()]
        .filter(([k]) => k.startsWith(prefix))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, o]) => `<Contents><Key>${escape(k)}</Key><Size>${o.body.length}</Size></Contents>`)
        .join("");
      const xml = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucketName}</Name><Prefix>${escape(prefix)}</Prefix><KeyCount>${contents.split("<Contents>").length - 1}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`;
      return send(200, xml, { "content-type": "application/xml" });
    }
    if (!key)
      return send(400, xmlError("InvalidRequest", "bucket operations are not supported"), {
        "content-type": "application/xml",
      });

    if ((req.method === "PUT" || req.method === "DELETE") && failWrites > 0) {
      failWrites--;
      return send(500, xmlError("InternalError", "injected failure"), { "content-type": "application/xml" });
    }
    switch (req.method) {
      case "PUT":
        bucket.set(key, {
          body,
          contentType: String(req.headers["content-type"] ?? "application/octet-stream"),
          cacheControl: req.headers["cache-control"] as string | undefined,
        });
        return send(200, "", { etag: `"${createHash("md5").update(body).digest("hex")}"` });
      case "GET":
      case "HEAD": {
        const obj = bucket.get(key);
        if (!obj)
          return send(404, xmlError("NoSuchKey", "The specified key does not exist."), {
            "content-type": "application/xml",
          });
        return send(200, obj.body, {
          "content-type": obj.contentType,
          "content-length": String(obj.body.length),
          ...(obj.cacheControl ? { "cache-control": obj.cacheControl } : {}),
        });
      }
      case "DELETE":
        bucket.delete(key);
        return send(204);
      default:
        return send(405, xmlError("MethodNotAllowed", "not supported"), { "content-type": "application/xml" });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId,
    secretAccessKey,
    buckets,
    requests,
    failNextWrites: (n) => {
      failWrites = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
