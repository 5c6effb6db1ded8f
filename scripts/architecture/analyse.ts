// Reads the server's shape from the code itself: its areas (folders, lines), the imports between
// areas (from dependency-cruiser, as `npm run check:layers` sees them) with the circles among them,
// and which area writes which table. `npm run architecture` prints it; the architecture test
// holds the writers to the owner list in app/server/table-owners.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getTableName, isTable } from "drizzle-orm";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SERVER = "app/server";

export type Area = { name: string; folders: string[]; files: number; lines: number };

const isSource = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f);

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...walk(rel));
    else out.push(rel);
  }
  return out;
}

/** The areas: every folder of app/server that has a face (index.server.ts). */
export function areaNames(): string[] {
  return fs
    .readdirSync(path.join(ROOT, SERVER), { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(ROOT, SERVER, e.name, "index.server.ts")))
    .map((e) => e.name)
    .sort();
}

/** The area a file of app/server belongs to, or null (boot, seed, and anything outside). */
export function areaOf(file: string, areas = areaNames()): string | null {
  const m = /^app\/server\/([^/]+)\//.exec(file);
  return m && areas.includes(m[1]!) ? m[1]! : null;
}

export function serverSources(): string[] {
  return walk(SERVER).filter(isSource);
}

export function describeAreas(): Area[] {
  const areas = areaNames();
  return areas.map((name) => {
    const files = serverSources().filter((f) => areaOf(f, areas) === name);
    const folders = [...new Set(files.map((f) => f.split("/")[3]!).filter((p) => !p.includes(".")))].sort();
    const lines = files.reduce((n, f) => n + fs.readFileSync(path.join(ROOT, f), "utf8").split("\n").length, 0);
    return { name, folders, files: files.length, lines };
  });
}

type Cruise = { modules: { source: string; dependencies: { resolved: string }[] }[] };

/** Imports between areas, counted per importing file and imported file (tests left out). */
export function areaImports(): Map<string, number> {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"), "--config", ".dependency-cruiser.cjs", "--output-type", "json", "app"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new Error(`dependency-cruiser failed: ${r.stderr}`);
  const areas = areaNames();
  const counts = new Map<string, number>();
  for (const m of (JSON.parse(r.stdout) as Cruise).modules) {
    if (!isSource(m.source)) continue;
    const from = areaOf(m.source, areas);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = areaOf(d.resolved, areas);
      if (!to || to === from) continue;
      counts.set(`${from} → ${to}`, (counts.get(`${from} → ${to}`) ?? 0) + 1);
    }
  }
  return counts;
}

/** Circles in the area graph (strongly connected groups of more than one area). */
export function areaCircles(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const [a, b] = e.split(" → ") as [string, string];
    next.set(a, [...(next.get(a) ?? []), b]);
  }
  const reach = (from: string) => {
    const seen = new Set<string>();
    const stack = [...(next.get(from) ?? [])];
    while (stack.length) {
      const n = stack.pop()!;
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(...(next.get(n) ?? []));
      }
    }
    return seen;
  };
  const nodes = [...new Set([...next.keys(), ...[...next.values()].flat()])];
  const groups = new Map<string, string[]>();
  for (const n of nodes) {
    const r = reach(n);
    if (!r.has(n)) continue;
    const group = nodes.filter((m) => r.has(m) && reach(m).has(n)).sort();
    groups.set(group.join(","), group);
  }
  return [...groups.values()];
}

/** Every table of the schema: its SQL name by the name the code imports it under. */
export async function schemaTables(): Promise<Map<string, string>> {
  const schema = (await import("../../app/server/platform/db/schema")) as Record<string, unknown>;
  const tables = new Map<string, string>();
  for (const [exported, value] of Object.entries(schema)) if (isTable(value)) tables.set(exported, getTableName(value));
  return tables;
}

export type Write = { table: string; area: string; file: string; line: number; how: string };

/**
 * Writes to tables found in the server's code: Drizzle's insert/update/delete on a schema table,
 * and SQL text that inserts into, updates, deletes from or copies into a table (by name or by an
 * interpolated schema table). Reads are not writes; triggers and migrations are the database's own.
 */
export async function tableWrites(): Promise<Write[]> {
  const tables = await schemaTables();
  const areas = areaNames();
  const writes: Write[] = [];
  for (const file of serverSources()) {
    const area = areaOf(file, areas) ?? file.replace(/^app\/server\//, "").split("/")[0]!.replace(/\.server\.ts$/, "");
    for (const w of writesInSource(fs.readFileSync(path.join(ROOT, file), "utf8"), tables)) writes.push({ ...w, area, file });
  }
  return writes;
}

/** The writes one source file makes, given the schema's tables (exported name → SQL name). */
export function writesInSource(src: string, tables: Map<string, string>): { table: string; line: number; how: string }[] {
  const sqlNames = new Set(tables.values());
  const found: { table: string; line: number; how: string }[] = [];
  const lineAt = (i: number) => src.slice(0, i).split("\n").length;
  for (const m of src.matchAll(/\.(insert|update|delete)\(\s*([A-Za-z_]\w*)\s*\)/g)) {
    const table = tables.get(m[2]!);
    if (table) found.push({ table, line: lineAt(m.index!), how: m[1]! });
  }
  const text = /\b(insert\s+into|update|delete\s+from|copy|truncate(?:\s+table)?)\s+(?:only\s+)?(?:\$\{\s*([A-Za-z_]\w*)\s*\}|"?([a-z_][a-z0-9_]*)"?)/gi;
  for (const m of src.matchAll(text)) {
    const table = m[2] ? tables.get(m[2]) : sqlNames.has(m[3]!.toLowerCase()) ? m[3]!.toLowerCase() : undefined;
    if (table) found.push({ table, line: lineAt(m.index!), how: m[1]!.toLowerCase().replace(/\s+/g, " ") });
  }
  return found;
}
