import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import pg from "pg";
import Stripe from "stripe";
import { EnvError, getEnv, publicUrl, type Env } from "../env.server";
import { migrationsFolder } from "../db/client.server";
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedServer } from "../db/embedded.server";
import { embeddedDataFolder } from "../db/embedded-place.server";
import { holdShopDatabaseLock, releaseShopLock, ShopAlreadyRunningError, takeShopLock, type ShopDatabaseLock } from "../db/shop-lock.server";
import type { Storage } from "../storage/backend.server";
import { describeStorage, errorText, statStorage, writeReadDelete } from "../storage/probe.server";
import { S3Storage, s3ConfigFromEnv } from "../storage/s3.server";
import { DiskStorage } from "../storage/storage.server";

/**
 * `npm run doctor`: checks the configuration this environment gives the shop (the variables of
 * README's table) against the real services, and says in plain words what is wrong and what to
 * do. Reads and writes nothing of the shop's own data: a migration check reads drizzle's table,
 * the storage check writes one small file and deletes it.
 */

export type CheckStatus = "ok" | "warn" | "fail" | "skip";
/** `summary` is one line; `details` are further lines (what to do). */
export type CheckResult = { name: string; status: CheckStatus; summary: string; details: string[] };

const MIN_POSTGRES = 150000;
/** Connections kept free for admins, the doctor and backups when counting app servers. */
const SPARE_CONNECTIONS = 5;
/**
 * Besides its pool, an app server opens one connection while it migrates at start, and for its
 * job queue worker five (LISTEN, bookkeeping, and one per job it runs at once: three) plus one
 * that says it is alive (docs/decisions/0028).
 */
const PER_SERVER_EXTRA = 7;

const result = (name: string, status: CheckStatus, summary: string, details: string[] = []): CheckResult => ({ name, status, summary, details });

/** Rejects when `promise` takes longer than `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** host:port/database of a postgres:// URL, without the user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "the configured server";
  }
}

/** host:port of an smtp:// URL, without the user or password. */
function describeSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === "smtps:" ? 465 : 587)}`;
  } catch {
    return "the configured server";
  }
}

// ---------------------------------------------------------------------------------------------
// Configuration

export function checkConfiguration(env: Env): CheckResult {
  const notes: string[] = [];
  const url = publicUrl(env);
  if (!env.PUBLIC_URL) {
    notes.push(`PUBLIC_URL is unset: links in mails and payment redirects point to ${url}. Set it to the address shoppers use (https://…).`);
  } else if (url.startsWith("http://") && !/^http:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(url)) {
    notes.push("PUBLIC_URL is not https://: sign-in cookies are not marked Secure and no HSTS is sent. Put a TLS proxy in front (docs/deploy.md).");
  }
  if (url.startsWith("https://") && !env.TRUST_PROXY) {
    notes.push(
      "PUBLIC_URL is https:// but TRUST_PROXY is not true: behind a reverse proxy every shopper looks like the proxy's address to the rate limits. Set TRUST_PROXY=true when one proxy is in front.",
    );
  }
  if (env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
    notes.push(
      `BETTER_AUTH_SECRET is unset: this server keeps its own generated secret in ${path.resolve(env.DATA_DIR, "secrets.json")}. With several app servers, set the same BETTER_AUTH_SECRET on each, or sessions signed on one fail on another.`,
    );
  }
  const summary = `the variables are valid; the shop's address is ${url}`;
  return notes.length ? result("configuration", "warn", summary, notes) : result("configuration", "ok", summary);
}

// ---------------------------------------------------------------------------------------------
// Database

type JournalEntry = { idx: number; when: number; tag: string };

function readJournal(folder = migrationsFolder()): JournalEntry[] {
  const file = path.join(folder, "meta", "_journal.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

/** Checks a reachable PostgreSQL: version, migrations, pg_trgm, connections. */
export async function inspectDatabase(url: string, where: string, env: Pick<Env, "DATABASE_POOL_SIZE">): Promise<CheckResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  client.on("error", () => {}); // a connection lost after the checks must not crash the doctor
  try {
    await within(10_000, `The database at ${where}`, client.connect());
  } catch (err) {
    await client.end().catch(() => {});
    const e = err as NodeJS.ErrnoException;
    const hint =
      e.code === "ECONNREFUSED"
        ? "Nothing accepts connections there: is PostgreSQL running, and are the host and port right?"
        : e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"
          ? "The host name does not resolve."
          : e.code === "28P01" || e.code === "28000"
            ? "The server refused the user name or password in DATABASE_URL."
            : e.code === "3D000"
              ? "The database named in DATABASE_URL does not exist: create it (an empty one is fine; the shop migrates it)."
              : "Check DATABASE_URL, the network and the server's pg_hba.conf.";
    return result("database", "fail", `cannot connect to the database at ${where} (${errorText(err)})`, [hint]);
  }
  try {
    const problems: string[] = [];
    const notes: string[] = [];
    const { rows: settings } = await client.query<{ name: string; setting: string }>(
      "select name, setting from pg_settings where name in ('server_version_num', 'server_version', 'max_connections', 'superuser_reserved_connections')",
    );
    const setting = (name: string) => settings.find((s) => s.name === name)?.setting ?? "";
    const versionNum = Number(setting("server_version_num"));
    const version = setting("server_version").split(" ")[0] ?? "?";
    if (versionNum < MIN_POSTGRES) problems.push(`PostgreSQL ${version} is too old: the shop needs 15 or newer.`);

    // Migrations: the journal in drizzle/ against drizzle's table of applied ones.
    const journal = readJournal();
    const { rows: table } = await client.query<{ exists: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as exists");
    const applied = table[0]?.exists
      ? (await client.query<{ created_at: string }>("select created_at from drizzle.__drizzle_migrations order by created_at")).rows.map((r) => Number(r.created_at))
      : [];
    const missing = journal.filter((m) => !applied.includes(m.when));
    const unknown = applied.filter((when) => !journal.some((m) => m.when === when));
    let migrations: string;
    if (!applied.length) {
      migrations = "no migrations applied";
      problems.push(
        `The database is empty (none of the ${journal.length} migrations applied). The shop applies them when it starts; or run: npm run db:migrate`,
      );
    } else if (missing.length) {
      migrations = `${journal.length - missing.length} of ${journal.length} migrations applied`;
      const newest = Math.max(...applied);
      const older = missing.filter((m) => m.when < newest);
      problems.push(
        `Not applied: ${missing.map((m) => m.tag).join(", ")}. Run: npm run db:migrate (the shop also applies migrations when it starts).`,
      );
      if (older.length)
        problems.push(
          `${older.map((m) => m.tag).join(", ")} ${older.length === 1 ? "is" : "are"} older than the newest applied migration, so drizzle will not apply ${older.length === 1 ? "it" : "them"} by itself: apply the SQL in drizzle/ by hand.`,
        );
    } else {
      migrations = `all ${journal.length} migrations applied`;
    }
    if (unknown.length)
      notes.push(`The database has ${unknown.length} migration(s) this copy of the shop does not know: a newer version migrated it. Run the newer version.`);

    const { rows: ext } = await client.query<{ installed: boolean; available: boolean }>(
      "select exists (select 1 from pg_extension where extname = 'pg_trgm') as installed, exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available",
    );
    if (!ext[0]?.installed) {
      if (!ext[0]?.available) problems.push("The pg_trgm extension is not available on this server (PostgreSQL's contrib package): search needs it.");
      else if (applied.length) problems.push("The pg_trgm extension is not installed: run `create extension pg_trgm;` as a user allowed to (search needs it).");
    }

    const maxConnections = Number(setting("max_connections"));
    const reserved = Number(setting("superuser_reserved_connections")) || 0;
    const servers = Math.floor((maxConnections - reserved - SPARE_CONNECTIONS) / (env.DATABASE_POOL_SIZE + PER_SERVER_EXTRA));
    const connections = `max_connections ${maxConnections}: room for ${Math.max(servers, 0)} app server${servers === 1 ? "" : "s"} at DATABASE_POOL_SIZE ${env.DATABASE_POOL_SIZE}`;
    if (servers < 1)
      problems.push(
        `max_connections ${maxConnections} is too small for one app server with DATABASE_POOL_SIZE ${env.DATABASE_POOL_SIZE} (it needs ${env.DATABASE_POOL_SIZE + PER_SERVER_EXTRA}, with ${SPARE_CONNECTIONS} to spare): raise max_connections or lower DATABASE_POOL_SIZE.`,
      );

    const summary = `PostgreSQL ${version} (${where}): ${migrations}${ext[0]?.installed ? ", pg_trgm installed" : ""}, ${connections}`;
    if (problems.length) return result("database", "fail", summary, [...problems, ...notes]);
    return result("database", notes.length ? "warn" : "ok", summary, notes);
  } catch (err) {
    return result("database", "fail", `the database at ${where} answered, but a check failed (${errorText(err)})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Behind a transaction pooler the server's own checks (version, migrations, connections) go to
 * DATABASE_DIRECT_URL, the session the migrations and the job queue use; the pooler at
 * DATABASE_URL, which serves every request, must answer too, and reach the same database.
 */
async function checkPooledDatabase(pooledUrl: string, directUrl: string, env: Env): Promise<CheckResult> {
  const server = await inspectDatabase(directUrl, `${describeDatabaseUrl(directUrl)}, DATABASE_DIRECT_URL`, env);
  const pooler = new pg.Client({ connectionString: pooledUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  pooler.on("error", () => {});
  const where = describeDatabaseUrl(pooledUrl);
  let problem: string | undefined;
  try {
    await within(10_000, `The pooler at ${where}`, pooler.connect());
    const { rows } = await pooler.query<{ name: string }>("select current_database() as name");
    const direct = new URL(directUrl).pathname.slice(1);
    if (direct && rows[0]?.name !== direct)
      problem = `DATABASE_URL (${where}) reaches the database "${rows[0]?.name}", DATABASE_DIRECT_URL the database "${direct}": both must name the same one.`;
  } catch (err) {
    problem = `The pooler at ${where} (DATABASE_URL) does not answer (${errorText(err)}): every request goes through it. Is PgBouncer running, and does its [databases] section name this database?`;
  } finally {
    await pooler.end().catch(() => {});
  }
  if (!problem) return { ...server, summary: `${server.summary}; requests through the pooler at ${where}` };
  return result("database", "fail", server.status === "fail" ? server.summary : `the pooler at ${where} is not usable`, [problem, ...server.details]);
}

/**
 * DATABASE_REPLICA_URL, when set: a standby (in recovery) of this shop's database. The shop
 * reads the storefront there and falls back to the primary when it is unreachable, so an
 * unreachable replica is a warning; a server that is no standby, or a copy of another database,
 * would serve pages the shop's writes never reach: a failure.
 */
export async function checkReplica(env: Env): Promise<CheckResult> {
  const url = env.DATABASE_REPLICA_URL;
  if (!url) return result("read replica", "skip", "DATABASE_REPLICA_URL is unset: the storefront reads the primary");
  const where = describeDatabaseUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  client.on("error", () => {});
  try {
    await within(10_000, `The replica at ${where}`, client.connect());
  } catch (err) {
    await client.end().catch(() => {});
    return result("read replica", "warn", `cannot connect to the replica at ${where} (${errorText(err)})`, [
      "The storefront reads the primary meanwhile. Is the standby running, and does its pg_hba.conf let the shop in?",
    ]);
  }
  try {
    const { rows } = await client.query<{ standby: boolean; behind: string | null }>(
      "select pg_is_in_recovery() as standby, extract(epoch from now() - pg_last_xact_replay_timestamp())::text as behind",
    );
    if (!rows[0]?.standby)
      return result("read replica", "fail", `the server at ${where} is not a standby (pg_is_in_recovery() is false)`, [
        "DATABASE_REPLICA_URL must name a streaming replica of DATABASE_URL's database (pg_basebackup -R, or a managed read replica): a writable server never receives the shop's writes.",
      ]);
    const journal = readJournal();
    const { rows: applied } = await client.query<{ newest: string | null }>(
      "select (select max(created_at) from drizzle.__drizzle_migrations)::text as newest where to_regclass('drizzle.__drizzle_migrations') is not null",
    );
    const newest = Number(applied[0]?.newest ?? 0);
    if (!journal.some((m) => m.when === newest))
      return result("read replica", "fail", `the standby at ${where} does not hold this shop's database (no migration of this copy of the shop applied there)`, [
        "DATABASE_REPLICA_URL must name a replica of the database DATABASE_URL names.",
      ]);
    const behind = rows[0].behind === null ? "nothing replayed yet" : `last replayed change ${Math.max(0, Math.round(Number(rows[0].behind)))} s ago`;
    return result("read replica", "ok", `a standby at ${where}: ${behind}; the storefront reads there while it keeps up`);
  } catch (err) {
    return result("read replica", "fail", `the replica at ${where} answered, but a check failed (${errorText(err)})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * DATABASE_URL's server; or, without it, the embedded one under DATA_DIR: used as it is when the
 * shop runs, else started for the check and stopped again (under the shop's lock, so a shop
 * starting meanwhile waits for nothing and is refused clearly).
 */
export async function checkDatabase(env: Env): Promise<CheckResult> {
  if (env.DATABASE_URL) {
    const direct = env.DATABASE_DIRECT_URL && env.DATABASE_DIRECT_URL !== env.DATABASE_URL ? env.DATABASE_DIRECT_URL : undefined;
    if (!direct) return inspectDatabase(env.DATABASE_URL, describeDatabaseUrl(env.DATABASE_URL), env);
    return checkPooledDatabase(env.DATABASE_URL, direct, env);
  }
  const dataDir = path.resolve(env.DATA_DIR);
  // Usually DATA_DIR/postgres; elsewhere when root's start moved it (docs/decisions/0001).
  const pgData = embeddedDataFolder(dataDir);
  if (!fs.existsSync(path.join(pgData, "PG_VERSION"))) {
    return result("database", "skip", `no embedded database in ${pgData} yet: the shop has not been started with this DATA_DIR`, [
      "`npm start` (or `node server.js` after a build) creates it on the first start. For a PostgreSQL server of your own, set DATABASE_URL.",
    ]);
  }
  let ownLock = false;
  let held: ShopDatabaseLock | undefined;
  try {
    await takeShopLock(dataDir, { runningDatabase: () => runningEmbeddedUrl(dataDir) });
    ownLock = true;
  } catch (err) {
    if (!(err instanceof ShopAlreadyRunningError)) throw err;
    // The shop runs on this folder: its database is up, and stays the shop's.
  }
  let server: EmbeddedServer | undefined;
  try {
    server = await within(90_000, "The embedded PostgreSQL", startEmbeddedPostgres({ dataDir }));
    if (ownLock) {
      // Held as a shop holds it, so a shop starting during the check is refused rather than
      // having its database stopped under it (docs/decisions/0030).
      held = await holdShopDatabaseLock(server.url, dataDir).catch((err: unknown) => {
        if (!(err instanceof ShopAlreadyRunningError)) throw err;
        releaseShopLock(dataDir);
        ownLock = false;
        return undefined;
      });
    }
    const checked = await inspectDatabase(server.url, `embedded, in ${pgData}`, env);
    if (!ownLock) checked.summary += " (the shop is running)";
    return checked;
  } catch (err) {
    return result("database", "fail", `the embedded PostgreSQL in ${pgData} does not start (${errorText(err)})`, [
      `Its log: ${pgData === path.join(dataDir, "postgres") ? path.join(dataDir, "logs", "postgres.log") : path.join(path.dirname(pgData), "postgres.log")}`,
    ]);
  } finally {
    // Stopped only when this check started it (not when it was running already).
    await held?.release();
    if (ownLock) {
      if (server && !server.reused) await server.stop();
      releaseShopLock(dataDir);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Storage

export function storageFromEnv(env: Env): Storage {
  const s3 = s3ConfigFromEnv(env);
  return s3 ? new S3Storage(s3) : new DiskStorage(path.resolve(env.DATA_DIR, "uploads"));
}

export async function checkStorage(env: Env, storage: Storage = storageFromEnv(env)): Promise<CheckResult> {
  const where = describeStorage(storage);
  const partlyS3 = !(storage instanceof S3Storage) && Boolean(env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID || env.S3_SECRET_ACCESS_KEY);
  const notes: string[] = [];
  if (partlyS3) notes.push("Some S3_ variables are set, but S3 storage needs all three of S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: uploads go to disk.");
  if (storage instanceof DiskStorage && env.DATABASE_URL)
    notes.push("Uploads are kept on this server's disk: with several app servers, use an S3 bucket (S3_*) so every server sees every image.");
  try {
    if (storage instanceof DiskStorage && !fs.existsSync(storage.root)) {
      // Not made yet (nothing uploaded): writing here would make it, perhaps as the wrong user.
      await statStorage(storage);
      const summary = `${where} does not exist yet; it will be made at the first upload, and its parent folder is writable`;
      return result("storage", notes.length ? "warn" : "ok", summary, notes);
    }
    const probe = await within(30_000, "The storage", writeReadDelete(storage));
    if (probe.publicRead === false)
      notes.push(
        `Browsers cannot read the bucket's files: ${probe.publicUrl} did not answer an anonymous GET with the file. Allow public reads (a bucket policy) or set S3_PUBLIC_URL to the address that serves them.`,
      );
    const summary = `${where}: a file was written, read back and deleted${probe.publicRead ? "; its public URL serves it" : ""}`;
    return result("storage", notes.length ? "warn" : "ok", summary, notes);
  } catch (err) {
    const hint =
      storage instanceof S3Storage
        ? "Check S3_ENDPOINT, S3_BUCKET (it must exist), S3_REGION, the keys, and S3_FORCE_PATH_STYLE=true for MinIO and most self-hosted stores."
        : "The shop's user must be able to write there (check the owner and permissions, and that the disk is not full).";
    return result("storage", "fail", `${where}: ${(err as Error).message}`, [hint, ...notes]);
  }
}

// ---------------------------------------------------------------------------------------------
// Mail

export async function checkMail(env: Env): Promise<CheckResult> {
  if (!env.SMTP_URL) {
    return result("mail", "skip", "SMTP_URL is unset: mail is kept in the outbox (admins read it at /admin/outbox), nothing is sent");
  }
  const where = describeSmtpUrl(env.SMTP_URL);
  const transport = nodemailer.createTransport({ url: env.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 });
  try {
    await within(30_000, `The SMTP server at ${where}`, transport.verify());
    return result("mail", "ok", `the SMTP server at ${where} answers and accepts the connection${new URL(env.SMTP_URL).username ? " and the login" : ""}`);
  } catch (err) {
    const e = err as { code?: string };
    const hint =
      e.code === "EAUTH"
        ? "The server refused the user name or password in SMTP_URL."
        : e.code === "ESOCKET" || e.code === "ECONNECTION" || e.code === "ETIMEDOUT"
          ? "Check the host and port (587 with STARTTLS: smtp://; 465: smtps://) and that this server may connect out to it."
          : "Check SMTP_URL.";
    return result("mail", "fail", `the SMTP server at ${where} does not answer as it should (${errorText(err)})`, [hint]);
  } finally {
    transport.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Payments

export async function checkPayments(env: Env): Promise<CheckResult> {
  if (!env.STRIPE_SECRET_KEY) {
    const notes = env.STRIPE_WEBHOOK_SECRET ? ["STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: Stripe is not used."] : [];
    return result(
      "payments",
      notes.length ? "warn" : "skip",
      "STRIPE_SECRET_KEY is unset: the built-in test payment page takes the payments (no money moves)",
      notes,
    );
  }
  const mode = env.STRIPE_SECRET_KEY.includes("_live_") ? "live mode" : env.STRIPE_SECRET_KEY.includes("_test_") ? "test mode" : "mode unknown";
  const stripe = new Stripe(env.STRIPE_SECRET_KEY, {
    host: env.STRIPE_API_HOST,
    port: env.STRIPE_API_PORT,
    protocol: env.STRIPE_API_PROTOCOL,
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
  });
  const problems: string[] = [];
  const notes: string[] = [];
  let summary: string;
  try {
    // What the shop itself does with the key (a restricted key must allow Checkout Sessions).
    await within(40_000, "Stripe's API", stripe.checkout.sessions.list({ limit: 1 }));
    summary = `Stripe accepts STRIPE_SECRET_KEY (${mode})`;
  } catch (err) {
    const type = (err as { type?: string }).type;
    summary =
      type === "StripeAuthenticationError"
        ? `Stripe refuses STRIPE_SECRET_KEY (${errorText(err)})`
        : type === "StripePermissionError"
          ? `STRIPE_SECRET_KEY may not read Checkout Sessions (${errorText(err)})`
          : `cannot reach Stripe's API (${errorText(err)})`;
    problems.push(
      type === "StripeAuthenticationError"
        ? "Copy the secret key (sk_live_… or sk_test_…) from Stripe's dashboard, Developers → API keys."
        : type === "StripePermissionError"
          ? "A restricted key needs write access to Checkout Sessions and Refunds (and read access to Payment Intents)."
          : "Check that this server may connect out to api.stripe.com (443).",
    );
  }
  if (!env.STRIPE_WEBHOOK_SECRET) {
    problems.push(
      `STRIPE_WEBHOOK_SECRET is unset: Stripe's webhook (${publicUrl(env)}/api/webhooks/stripe) cannot be verified, so every delivery is refused. Add the endpoint in Stripe's dashboard and set its signing secret (whsec_…).`,
    );
  } else if (!env.STRIPE_WEBHOOK_SECRET.startsWith("whsec_")) {
    notes.push("STRIPE_WEBHOOK_SECRET does not start with whsec_: is it the webhook endpoint's signing secret?");
  }
  if (problems.length) return result("payments", "fail", summary, [...problems, ...notes]);
  return result("payments", notes.length ? "warn" : "ok", summary, notes);
}

// ---------------------------------------------------------------------------------------------

/** Every check, in order. A bad environment is the one failure that stops the others. */
export async function runDoctor(): Promise<CheckResult[]> {
  let env: Env;
  try {
    env = getEnv();
  } catch (err) {
    if (err instanceof EnvError) return [result("configuration", "fail", err.message, ["Fix the variable (README.md, Configuration), then run the doctor again."])];
    throw err;
  }
  const results = [checkConfiguration(env)];
  // One at a time, so the report reads in order and a slow check shows where it is.
  for (const check of [checkDatabase, checkReplica, checkStorage, checkMail, checkPayments]) {
    try {
      results.push(await check(env));
    } catch (err) {
      results.push(result(check.name.replace(/^check/, "").toLowerCase(), "fail", `the check itself failed (${errorText(err)})`));
    }
  }
  return results;
}

const MARK: Record<CheckStatus, string> = { ok: "✔", warn: "!", fail: "✖", skip: "–" };

export function formatReport(results: CheckResult[]): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const lines = [""];
  for (const r of results) {
    lines.push(`  ${MARK[r.status]} ${r.name.padEnd(width)}  ${r.summary}`);
    for (const d of r.details) lines.push(`  ${" ".repeat(width + 4)}${d}`);
  }
  const failed = results.filter((r) => r.status === "fail");
  const warned = results.filter((r) => r.status === "warn");
  lines.push("");
  if (failed.length) lines.push(`  ${failed.length} problem${failed.length === 1 ? "" : "s"}: ${failed.map((r) => r.name).join(", ")}.`);
  else lines.push(`  No problem found${warned.length ? ` (${warned.length} warning${warned.length === 1 ? "" : "s"}: ${warned.map((r) => r.name).join(", ")})` : ""}.`);
  lines.push("");
  return lines.join("\n");
}
