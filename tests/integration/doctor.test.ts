import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv, resetEnvCache } from "~/server/platform/env.server";
import { checkDatabase, checkMail, checkReplica, describeDatabaseUrl, checkPayments, checkStorage, formatReport, runDoctor } from "~/server/platform/ops/doctor.server";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { createTestDatabase, useTestDatabase } from "../setup/database";

const t = useTestDatabase();
const journal = (JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: { tag: string }[] }).entries;
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-doctor-"));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const SHOP_VARS = ["DATABASE_URL", "DATABASE_DIRECT_URL", "DATABASE_REPLICA_URL", "DATA_DIR", "SMTP_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_HOST", "STRIPE_API_PORT", "STRIPE_API_PROTOCOL"];
const S3_VARS = ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "S3_BUCKET", "DATABASE_POOL_SIZE"];

/** Runs `fn` with these variables (and no other of the checked services' variables), then puts process.env back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const names = [...new Set([...SHOP_VARS, ...S3_VARS, ...Object.keys(vars)])];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  for (const n of [...SHOP_VARS.filter((n) => n !== "DATA_DIR"), ...S3_VARS]) delete process.env[n];
  for (const [n, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[n];
    else process.env[n] = v;
  }
  resetEnvCache();
  try {
    return await fn();
  } finally {
    for (const [n, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
    resetEnvCache();
  }
}

describe("npm run doctor: the database", () => {
  it("a migrated database: ok, with its version, every migration applied and pg_trgm", async () => {
    const r = await withEnv({ DATABASE_URL: t.url }, () => checkDatabase(getEnv()));
    expect(r.status).toBe("ok");
    expect(r.summary).toMatch(/^PostgreSQL \d+/);
    expect(r.summary).toContain(`all ${journal.length} migrations applied`);
    expect(r.summary).toContain("pg_trgm installed");
    expect(r.summary).toMatch(/max_connections \d+: room for \d+ app servers? at DATABASE_POOL_SIZE 10/);
    // The password never shows.
    expect(JSON.stringify(r)).not.toContain(new URL(t.url).password || "\u0000");
  });

  it("a database missing the newest migration: says which, and how to apply it", async () => {
    const other = await createTestDatabase();
    try {
      await other.db.$client.query("delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)");
      const r = await withEnv({ DATABASE_URL: other.url }, () => checkDatabase(getEnv()));
      expect(r.status).toBe("fail");
      expect(r.summary).toContain(`${journal.length - 1} of ${journal.length} migrations applied`);
      expect(r.details.join("\n")).toContain(`Not applied: ${journal.at(-1)!.tag}. Run: npm run db:migrate`);
    } finally {
      await other.drop();
    }
  });

  it("an empty database: none applied", async () => {
    const other = await createTestDatabase();
    try {
      await other.db.$client.query("drop schema drizzle cascade");
      const r = await withEnv({ DATABASE_URL: other.url }, () => checkDatabase(getEnv()));
      expect(r).toMatchObject({ status: "fail" });
      expect(r.details[0]).toContain(`none of the ${journal.length} migrations applied`);
    } finally {
      await other.drop();
    }
  });

  it("an unreachable DATABASE_URL: says it cannot connect, where, and what to look at", async () => {
    const port = await closedPort();
    const r = await withEnv({ DATABASE_URL: `postgres://shop:secret-pw@127.0.0.1:${port}/shop` }, () => checkDatabase(getEnv()));
    expect(r.status).toBe("fail");
    expect(r.summary).toContain(`cannot connect to the database at 127.0.0.1:${port}/shop`);
    expect(r.summary).toContain("ECONNREFUSED");
    expect(r.details[0]).toMatch(/is PostgreSQL running/);
    expect(JSON.stringify(r)).not.toContain("secret-pw");
  });

  it("behind a pooler: the server is checked through DATABASE_DIRECT_URL and the pooler at DATABASE_URL must answer", async () => {
    // The pooler here is the same server under another URL: what matters is which URL each check uses.
    const pooled = `${t.url}${t.url.includes("?") ? "&" : "?"}application_name=pooler`;
    const ok = await withEnv({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: t.url }, () => checkDatabase(getEnv()));
    expect(ok.status).toBe("ok");
    expect(ok.summary).toContain(`all ${journal.length} migrations applied`);
    expect(ok.summary).toContain(`${describeDatabaseUrl(t.url)}, DATABASE_DIRECT_URL`);
    expect(ok.summary).toContain(`requests through the pooler at ${describeDatabaseUrl(pooled)}`);

    const port = await closedPort();
    const down = await withEnv({ DATABASE_URL: `postgres://shop:secret-pw@127.0.0.1:${port}/shop`, DATABASE_DIRECT_URL: t.url }, () =>
      checkDatabase(getEnv()),
    );
    expect(down.status).toBe("fail");
    expect(down.summary).toBe(`the pooler at 127.0.0.1:${port}/shop is not usable`);
    expect(down.details[0]).toMatch(/^The pooler at 127\.0\.0\.1:\d+\/shop \(DATABASE_URL\) does not answer .*Is PgBouncer running/);
    expect(JSON.stringify(down)).not.toContain("secret-pw");

    const other = await createTestDatabase();
    try {
      const elsewhere = await withEnv({ DATABASE_URL: other.url, DATABASE_DIRECT_URL: t.url }, () => checkDatabase(getEnv()));
      expect(elsewhere.status).toBe("fail");
      expect(elsewhere.details[0]).toContain("both must name the same one");
    } finally {
      await other.drop();
    }
  });

  it("without DATABASE_URL and no embedded database in DATA_DIR: says the shop has not been started yet", async () => {
    const dataDir = path.join(tmp, "never-started");
    const r = await withEnv({ DATA_DIR: dataDir }, () => checkDatabase(getEnv()));
    expect(r.status).toBe("skip");
    expect(r.summary).toContain("the shop has not been started with this DATA_DIR");
  });
});

describe("npm run doctor: the read replica", () => {
  it("is skipped when unset, a warning when unreachable, and a failure when it names a writable server", async () => {
    expect((await withEnv({ DATABASE_URL: t.url }, () => checkReplica(getEnv()))).status).toBe("skip");

    const port = await closedPort();
    const down = await withEnv({ DATABASE_URL: t.url, DATABASE_REPLICA_URL: `postgres://shop:secret-pw@127.0.0.1:${port}/shop` }, () => checkReplica(getEnv()));
    expect(down.status).toBe("warn");
    expect(down.summary).toContain(`cannot connect to the replica at 127.0.0.1:${port}/shop`);
    expect(down.details[0]).toContain("The storefront reads the primary meanwhile.");
    expect(JSON.stringify(down)).not.toContain("secret-pw");

    // The test database is a primary: pages read there would never see writes made elsewhere.
    const primary = await withEnv({ DATABASE_URL: t.url, DATABASE_REPLICA_URL: t.url }, () => checkReplica(getEnv()));
    expect(primary.status).toBe("fail");
    expect(primary.summary).toBe(`the server at ${describeDatabaseUrl(t.url)} is not a standby (pg_is_in_recovery() is false)`);
    expect(primary.details[0]).toContain("must name a streaming replica");
  });
});

describe("npm run doctor: storage", () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3.close();
  });
  const s3Vars = (secret = s3.secretAccessKey) => ({
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: secret,
    S3_FORCE_PATH_STYLE: "true",
  });

  it("a disk folder: writes, reads back and deletes a file, leaving nothing", async () => {
    const dataDir = path.join(tmp, "disk");
    fs.mkdirSync(path.join(dataDir, "uploads"), { recursive: true });
    const r = await withEnv({ DATA_DIR: dataDir }, () => checkStorage(getEnv()));
    expect(r).toMatchObject({ status: "ok" });
    expect(r.summary).toContain("a file was written, read back and deleted");
    expect(fs.readdirSync(path.join(dataDir, "uploads"))).toEqual([]);
  });

  it("an S3 bucket: the same, and its public URL serves the file; wrong keys are named a failure", async () => {
    const ok = await withEnv(s3Vars(), () => checkStorage(getEnv()));
    expect(ok).toMatchObject({ status: "ok" });
    expect(ok.summary).toContain('S3 bucket "site-assets"');
    expect(ok.summary).toContain("its public URL serves it");
    expect(s3.buckets.get("site-assets")!.size).toBe(0);

    const bad = await withEnv(s3Vars("not-the-secret"), () => checkStorage(getEnv()));
    expect(bad.status).toBe("fail");
    expect(bad.summary).toContain("cannot write a file");
    expect(bad.details[0]).toContain("S3_BUCKET");
  });
});

describe("npm run doctor: mail", () => {
  it("SMTP_URL unset: skipped (the outbox keeps mail)", async () => {
    expect(await withEnv({}, () => checkMail(getEnv()))).toMatchObject({ status: "skip" });
  });

  it("an SMTP server that answers: ok", async () => {
    const server = new SMTPServer({ authOptional: true, hideSTARTTLS: true, logger: false });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.server.address() as net.AddressInfo;
      const r = await withEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` }, () => checkMail(getEnv()));
      expect(r).toMatchObject({ status: "ok", summary: `the SMTP server at 127.0.0.1:${port} answers and accepts the connection` });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("SMTP_URL pointing at a closed port: says so", async () => {
    const port = await closedPort();
    const r = await withEnv({ SMTP_URL: `smtp://mailer:secret-pw@127.0.0.1:${port}` }, () => checkMail(getEnv()));
    expect(r.status).toBe("fail");
    expect(r.summary).toContain(`the SMTP server at 127.0.0.1:${port} does not answer`);
    expect(r.summary).toContain("ECONNREFUSED");
    expect(JSON.stringify(r)).not.toContain("secret-pw");
  });
});

describe("npm run doctor: payments", () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(async () => {
    await stripe.close();
  });
  const stripeVars = (key: string, webhookSecret: string | null = stripe.webhookSecret) => ({
    STRIPE_SECRET_KEY: key,
    STRIPE_WEBHOOK_SECRET: webhookSecret ?? undefined,
    STRIPE_API_HOST: stripe.host,
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: "http",
  });

  it("a key Stripe accepts, with a webhook secret: ok", async () => {
    const r = await withEnv(stripeVars(stripe.secretKey), () => checkPayments(getEnv()));
    expect(r).toMatchObject({ status: "ok", summary: "Stripe accepts STRIPE_SECRET_KEY (test mode)" });
    expect(stripe.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/checkout/sessions" });
  });

  it("a wrong key: says Stripe refuses it", async () => {
    const r = await withEnv(stripeVars("sk_test_wrong"), () => checkPayments(getEnv()));
    expect(r.status).toBe("fail");
    expect(r.summary).toContain("Stripe refuses STRIPE_SECRET_KEY");
    expect(r.summary).toContain("Invalid API Key provided");
  });

  it("a key without a webhook secret: says the webhook cannot be verified", async () => {
    const r = await withEnv(stripeVars(stripe.secretKey, null), () => checkPayments(getEnv()));
    expect(r.status).toBe("fail");
    expect(r.details.join("\n")).toContain("STRIPE_WEBHOOK_SECRET is unset");
  });

  it("no key: skipped (the test payment page)", async () => {
    expect(await withEnv({}, () => checkPayments(getEnv()))).toMatchObject({ status: "skip" });
  });
});

describe("npm run doctor: the whole report", () => {
  it("a bad variable is the one failure, named", async () => {
    const results = await withEnv({ DATABASE_POOL_SIZE: "lots" }, () => runDoctor());
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: "configuration", status: "fail" });
    expect(results[0]!.summary).toContain("DATABASE_POOL_SIZE");
  });

  it("prints one line per check and a closing verdict", async () => {
    const report = formatReport([
      { name: "configuration", status: "ok", summary: "fine", details: [] },
      { name: "database", status: "fail", summary: "cannot connect", details: ["Is it running?"] },
      { name: "mail", status: "skip", summary: "unset", details: [] },
    ]);
    expect(report).toContain("  ✔ configuration  fine");
    expect(report).toContain("  ✖ database       cannot connect\n                   Is it running?");
    expect(report).toContain("  – mail           unset");
    expect(report).toContain("1 problem: database.");
  });

  /** `npm run doctor` as a shop owner runs it: tsx on scripts/doctor.ts. */
  function runScript(env: Record<string, string>) {
    return new Promise<{ code: number; out: string }>((resolve) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => ![...SHOP_VARS, ...S3_VARS].includes(k))) as Record<string, string>;
      execFile(
        path.resolve("node_modules/.bin/tsx"),
        ["scripts/doctor.ts"],
        { env: { ...clean, LOG_LEVEL: "silent", ...env }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
      );
    });
  }

  it("the script exits 0 on a good configuration and 1 naming what failed", async () => {
    const dataDir = path.join(tmp, "script");
    const good = await runScript({ DATABASE_URL: t.url, DATA_DIR: dataDir });
    expect(good.out).toContain("✔ database");
    expect(good.out).toContain("No problem found");
    expect(good.code).toBe(0);

    const port = await closedPort();
    const bad = await runScript({ DATABASE_URL: `postgres://shop:pw@127.0.0.1:${port}/shop`, DATA_DIR: dataDir });
    expect(bad.out).toContain(`✖ database       cannot connect to the database at 127.0.0.1:${port}/shop`);
    expect(bad.out).toContain("1 problem: database.");
    expect(bad.code).toBe(1);
  });
});
