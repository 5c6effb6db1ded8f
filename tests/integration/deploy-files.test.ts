import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * The deployment files stay true to the shop: the Dockerfile's stages and runtime, compose.yaml's
 * services and the variables they give the shop, and README's configuration table against the
 * variables env.server.ts reads. With a usable Docker (daemon, compose plugin) the files are also
 * checked by Docker itself; without one those two checks are skipped and say so.
 */

const read = (file: string) => fs.readFileSync(file, "utf8");

/** The variable names of env.server.ts's schema (the only reader of process.env). */
function shopVariables(): string[] {
  const source = read("app/server/platform/env.server.ts");
  const start = source.indexOf("const EnvSchema = z.object({");
  const end = source.indexOf("\n});", start);
  expect(start, "EnvSchema in env.server.ts").toBeGreaterThan(-1);
  const names = [...source.slice(start, end).matchAll(/^\s{2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  expect(names.length).toBeGreaterThan(20);
  return names;
}

/** Every name in backticks in the first column of README's configuration table. */
function readmeVariables(): string[] {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 5));
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

type Instruction = { op: string; args: string };
type Stage = { from: string; name: string | undefined; instructions: Instruction[] };

/** The Dockerfile as stages of instructions (comments dropped, continuation lines joined). */
function dockerStages(text: string): { args: Instruction[]; stages: Stage[] } {
  const logical = text
    .replace(/\\\r?\n(\s*#.*\r?\n)*/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const args: Instruction[] = [];
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op = "", rest = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const ins = { op: op.toUpperCase(), args: rest.replace(/\s+/g, " ") };
    if (ins.op === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      stages.push({ from: m?.[1] ?? ins.args, name: m?.[2], instructions: [] });
    } else if (stages.length) stages.at(-1)!.instructions.push(ins);
    else args.push(ins);
  }
  return { args, stages };
}

describe("Dockerfile", () => {
  const { args, stages } = dockerStages(read("Dockerfile"));
  const final = stages.at(-1)!;
  const all = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);

  it("builds in a stage of its own (npm ci, npm run build) on a Node image the shop supports", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s.from).toMatch(/^node:/);
    const nodeVersion = args.find((a) => a.op === "ARG" && a.args.startsWith("NODE_VERSION="))?.args.split("=")[1];
    expect(Number(nodeVersion ?? stages[0]!.from.replace(/^node:(\d+).*/, "$1"))).toBeGreaterThanOrEqual(20);
    const build = stages.find((s) => s.name === "build")!;
    expect(build, "a stage named build").toBeDefined();
    expect(all(build, "RUN").some((r) => /\bnpm ci\b/.test(r) && !r.includes("--omit=dev"))).toBe(true);
    expect(all(build, "RUN")).toContain("npm run build");
  });

  it("runs production dependencies only, as a non-root user, with node server.js (never a build at start)", () => {
    const copiedModules = all(final, "COPY").find((c) => c.includes("node_modules"));
    const depsStage = stages.find((s) => copiedModules?.includes(`--from=${s.name} `));
    expect(depsStage, "node_modules copied from a stage of their own").toBeDefined();
    expect(all(depsStage!, "RUN").some((r) => /npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(all(final, "COPY").some((c) => /--from=build\s+\S*build\s/.test(`${c} `))).toBe(true);

    const users = all(final, "USER");
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(all(final, "CMD")).toEqual(['["node", "server.js"]']);
    expect(all(final, "ENTRYPOINT")).toEqual([]);
    for (const r of all(final, "RUN")) expect(r).not.toMatch(/npm (run build|start)|react-router build/);
  });

  it("checks /healthz, exposes 3000 and keeps DATA_DIR in a volume", () => {
    const health = all(final, "HEALTHCHECK");
    expect(health).toHaveLength(1);
    expect(health[0]).toContain("/healthz");
    expect(all(final, "EXPOSE")).toEqual(["3000"]);
    const dataDir = all(final, "ENV").join(" ").match(/\bDATA_DIR=(\S+)/)?.[1];
    expect(dataDir, "ENV DATA_DIR=…").toBeDefined();
    expect(all(final, "VOLUME").join(" ")).toContain(`"${dataDir}"`);
  });

  it("copies what the runtime reads: the build, server.js, the migrations", () => {
    const copies = all(final, "COPY").join("\n");
    for (const needed of ["server.js", "drizzle", "package.json"]) expect(copies).toContain(needed);
    const ignored = read(".dockerignore").split("\n").map((l) => l.trim());
    for (const never of ["node_modules", "data", ".env", ".git"]) expect(ignored).toContain(never);
  });
});

describe("compose.yaml", () => {
  type Service = {
    image?: string;
    build?: unknown;
    environment?: Record<string, string>;
    volumes?: string[];
    depends_on?: Record<string, { condition: string }>;
    healthcheck?: { test: string[] };
    command?: string[] | string;
    init?: boolean;
    stop_grace_period?: string;
  };
  const compose = parse(read("compose.yaml")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const { shop, postgres, minio } = compose.services as Record<string, Service>;
  const init = Object.entries(compose.services).find(([, s]) => s.image?.includes("minio/mc"))?.[1];

  it("has the shop (built here), PostgreSQL 16 and MinIO, with a step that makes the bucket", () => {
    expect(shop?.build).toBeDefined();
    expect(postgres?.image).toMatch(/^postgres:16(\.|-|$)/);
    expect(minio?.image).toMatch(/minio\/minio/);
    expect(init, "an mc service").toBeDefined();
    expect(String(init!.command)).toMatch(/mc mb .*local\/site-assets/);
    expect(String(init!.command)).toContain("mc anonymous set download local/site-assets");
    expect(shop!.depends_on).toMatchObject({ postgres: { condition: "service_healthy" } });
    expect(Object.values(shop!.depends_on!).map((d) => d.condition)).toContain("service_completed_successfully");
    expect(shop!.init).toBe(true);
    expect(shop!.stop_grace_period).toBeDefined();
  });

  it("gives the shop only variables it reads, pointing at those services", () => {
    const known = new Set(shopVariables());
    const env = shop!.environment!;
    for (const name of Object.keys(env)) expect(known.has(name), `${name} is not read by env.server.ts`).toBe(true);
    expect(new URL(env.DATABASE_URL!.replace(/\$\{[^}]*\}/g, "x")).host).toBe("postgres:5432");
    expect(new URL(env.S3_ENDPOINT!).host).toBe("minio:9000");
    expect(env.S3_FORCE_PATH_STYLE).toBe("true");
    expect(env.S3_BUCKET).toBe("site-assets");
    expect(env.S3_SECRET_ACCESS_KEY).toContain("${S3_SECRET_ACCESS_KEY");
    // The database user and name match PostgreSQL's.
    expect(env.DATABASE_URL).toMatch(new RegExp(`^postgres://${postgres!.environment!.POSTGRES_USER}:.*/${postgres!.environment!.POSTGRES_DB}$`));
    // DATA_DIR (the image's /data) is a named volume.
    expect(shop!.volumes).toContain("shop-data:/data");
    expect(compose.volumes).toHaveProperty("shop-data");
  });
});

describe("README's configuration table", () => {
  it("lists every variable the shop reads (env.server.ts), and none it does not", () => {
    const documented = new Set(readmeVariables());
    const read = shopVariables();
    expect(read.filter((n) => !documented.has(n)), "variables missing from README.md's table").toEqual([]);
    expect([...documented].filter((n) => !read.includes(n)), "README.md documents variables the shop does not read").toEqual([]);
  });
});

/** Docker's own checks, where Docker can run them (a daemon for build --check, the compose plugin). */
describe("Docker's own checks", () => {
  const docker = (...argv: string[]) => spawnSync("docker", argv, { encoding: "utf8", timeout: 120_000 });
  const hasCompose = docker("compose", "version").status === 0;
  const hasDaemon = docker("info").status === 0 && /--check/.test(docker("build", "--help").stdout ?? "");

  it.skipIf(!hasCompose)("docker compose config accepts compose.yaml", () => {
    const out = execFileSync("docker", ["compose", "-f", "compose.yaml", "config", "--quiet"], {
      encoding: "utf8",
      env: { ...process.env, POSTGRES_PASSWORD: "p", MINIO_ROOT_PASSWORD: "minio-password", S3_SECRET_ACCESS_KEY: "shop-password" },
    });
    expect(out).toBe("");
  });

  it.skipIf(!hasDaemon)("docker build --check finds nothing to warn about in the Dockerfile", () => {
    const res = docker("build", "--check", ".");
    expect(res.status, res.stderr).toBe(0);
  });
});
