import { z } from "zod";

/**
 * The only reader of process.env. Every variable the shop understands is listed here with its
 * default; README.md's configuration table mirrors this schema.
 */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "yes");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: z.string().default("./data"),
  SHOP_BUILD_DIR: z.string().default("build"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  // A direct session to the same database, when DATABASE_URL goes through a transaction pooler
  // (PgBouncer): migrations, the job queue's LISTEN and its alive lock need a session of their own
  // (docs/decisions/0039). Unset: DATABASE_URL.
  DATABASE_DIRECT_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  // A streaming replica of that database: the storefront's catalog and blog reads go there while
  // it is reachable and has replayed the newest change seen, the primary otherwise (docs/decisions/0041).
  DATABASE_REPLICA_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  // Admission control (docs/decisions/0016): requests worked on at once (default: 4 × the pool's
  // size), searches among them (default: half the pool; docs/decisions/0047), how many may wait
  // for a turn, and for how long, before a 503.
  REQUEST_CONCURRENCY: z.coerce.number().int().min(1).max(1000).optional(),
  REQUEST_SEARCH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).optional(),
  REQUEST_QUEUE: z.coerce.number().int().min(0).max(100_000).default(2000),
  REQUEST_QUEUE_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  SEED_DEMO: z.enum(["auto", "true", "false"]).default("auto"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BETTER_AUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  TRUST_PROXY: booleanFlag,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_HOST: optionalString,
  STRIPE_API_PORT: z.coerce.number().int().optional(),
  STRIPE_API_PROTOCOL: z.enum(["http", "https"]).optional(),
  SMTP_URL: optionalString.pipe(z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional()),
  MAIL_FROM: z.string().default("Linen & Loft <hello@linenandloft.test>"),
  SHOP_EMAIL: z.email().default("hello@linenandloft.test"),
  S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  S3_REGION: z.string().default("us-east-1"),
  S3_BUCKET: z.string().default("site-assets"),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalString.pipe(z.url().optional()),
  S3_FORCE_PATH_STYLE: booleanFlag,
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(5 * 1024 * 1024),
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).default(200 * 1024 * 1024),
  IMAGE_FETCH_ALLOW_PRIVATE: booleanFlag,
  RATE_LIMIT_DISABLED: booleanFlag,
  PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  // The shop listing's data requests answered without React Router's pipeline when they are plain
  // (server/listing-data.ts, docs/decisions/0040); `off` sends every one through React Router, as
  // the test comparing both answers and the benchmark do.
  LISTING_DATA_DIRECT: z.enum(["on", "off"]).default("on"),
  // Visit counting without cookies (docs/rules/analytics.md, Visits): `off` counts nothing, so
  // the benchmark can compare; counts are written to the database every VISIT_FLUSH_MS.
  VISIT_COUNTING: z.enum(["on", "off"]).default("on"),
  VISIT_FLUSH_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  // A CDN in front (docs/decisions/0037): how long it may keep an anonymous storefront page, and
  // serve it stale while it fetches a new one; and how the shop purges it by tag.
  CDN_S_MAXAGE: z.coerce.number().int().min(0).max(31_536_000).default(300),
  CDN_STALE_WHILE_REVALIDATE: z.coerce.number().int().min(0).max(31_536_000).default(86_400),
  CDN_PURGE: z.enum(["off", "fastly", "cloudflare", "varnish"]).default("off"),
  FASTLY_API_URL: z.url().default("https://api.fastly.com"),
  FASTLY_SERVICE_ID: optionalString,
  FASTLY_API_TOKEN: optionalString,
  CLOUDFLARE_API_URL: z.url().default("https://api.cloudflare.com/client/v4"),
  CLOUDFLARE_ZONE_ID: optionalString,
  CLOUDFLARE_API_TOKEN: optionalString,
  // Every Varnish (or other cache) to purge, comma separated: each gets the request.
  VARNISH_PURGE_URLS: optionalString,
  VARNISH_PURGE_METHOD: z.enum(["BAN", "PURGE"]).default("BAN"),
  VARNISH_PURGE_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name").default("X-Purge-Tags"),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new EnvError(`Invalid environment variable ${name}: ${issue.message} (got "${process.env[name] ?? ""}")`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change process.env between cases; production never calls this. */
export function resetEnvCache() {
  cached = undefined;
}

export function publicUrl(env: Env = getEnv()): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}

/** What the browser may see. Nothing secret belongs here. */
export function getPublicEnv() {
  const env = getEnv();
  return { paymentProvider: env.STRIPE_SECRET_KEY ? "stripe" : "test" } as const;
}
