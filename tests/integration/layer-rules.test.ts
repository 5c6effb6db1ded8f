// The layer rules (.dependency-cruiser.cjs, docs/decisions/0014) break when broken: a throwaway
// tree shaped like the repo breaks each rule once, and the checker, run exactly as
// `npm run check:layers` runs it, must name every break under its rule and nothing else. Then the
// real tree must pass.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

/** The folders `npm run check:layers` cruises, read from package.json so the test cannot drift. */
function cruisedFolders(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = pkg.scripts["check:layers"]!.trim().split(/\s+/);
  expect(words[0]).toBe("depcruise");
  const folders: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.startsWith("-")) i++; // every option the script uses takes a value
    else folders.push(words[i]!);
  }
  return folders;
}

type Violation = {
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: { name: string }[];
};

function run(cwd: string, outputType: string) {
  return spawnSync(
    process.execPath,
    [DEPCRUISE, "--config", CONFIG, "--output-type", outputType, ...cruisedFolders()],
    { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
}

/** Every violation, from the JSON report (whose exit code is always 0). */
function violationsIn(cwd: string): Violation[] {
  const r = run(cwd, "json");
  expect(r.stderr).toBe("");
  const result = JSON.parse(r.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations;
}

const line = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to}`;

// Every file of the throwaway tree. Comments say which rule a file breaks; files without one only
// import what is allowed, so they must produce no violation.
const FIXTURES: Record<string, string> = {
  "app/server/platform/env.server.ts": "export const env = { port: 3000 };\n",
  "app/server/platform/logger.server.ts": "export const log = (msg: string) => msg;\n",
  "app/server/platform/refusal.server.ts": "export type Refusal = { kind: string; message: string };\n",
  "app/server/platform/index.server.ts":
    'export { env } from "./env.server";\n' + 'export type { Refusal } from "./refusal.server";\n',
  // Platform's route kit: what a route edge needs, and no adapter.
  "app/server/platform/http/index.server.ts":
    'export { env } from "../env.server";\n' + 'export type { Refusal } from "../refusal.server";\n',
  // Two adapters: file storage and a mail transport.
  "app/server/platform/storage/storage.server.ts": "export const getStorage = () => ({ kind: 'disk' });\n",
  "app/server/platform/mail/transport.server.ts": "export const sendMail = (to: string) => to;\n",
  "app/server/catalog/products/products.server.ts":
    'import type { ProductView } from "~/lib/catalog-view";\n' +
    'import { env } from "../../platform/index.server";\n' +
    "export function listProducts(): ProductView[] { return env.port ? [] : []; }\n",
  "app/server/catalog/index.server.ts": 'export { listProducts } from "./products/products.server";\n',
  "app/server/commerce/index.server.ts": 'export { reload } from "./orders/reload.server";\n',
  "app/server/platform/db/schema.ts": "export const products = 'products';\n",
  // Allowed from db: db itself, env, logger, refusal (a type), npm packages, node built-ins.
  "app/server/platform/db/client.server.ts":
    'import fs from "node:fs";\n' +
    'import { sql } from "drizzle-orm";\n' +
    'import { env } from "../env.server";\n' +
    'import { log } from "~/server/platform/logger.server";\n' +
    'import type { Refusal } from "../refusal.server";\n' +
    'import { products } from "./schema";\n' +
    "export const client = { fs, sql, env, log, products, refusal: null as Refusal | null };\n",
  // db → an area (also: platform imports an area, and not through its face).
  "app/server/platform/db/counts.server.ts":
    'import { listProducts } from "../../catalog/products/products.server";\n' +
    "export const count = () => listProducts().length;\n",
  // db → anything else in the app (app/lib).
  "app/server/platform/db/views.server.ts":
    'import type { ProductView } from "~/lib/catalog-view";\n' +
    "export type Row = ProductView;\n",
  // server → a route (also: commerce → catalog's internals instead of its face).
  "app/server/commerce/orders/reload.server.ts":
    'import { loader } from "~/routes/store/product";\n' +
    'import { listProducts } from "../../catalog/products/products.server";\n' +
    "export const reload = () => [loader(), listProducts()];\n",
  // server → a component.
  "app/server/commerce/orders/badge.server.ts":
    'import { Badge } from "../../../components/store/badge";\n' + "export const badge = Badge;\n",
  // Allowed: commerce asks catalog through its face, and platform through its face.
  "app/server/commerce/orders/lines.server.ts":
    'import { listProducts } from "../../catalog/index.server";\n' +
    'import type { Refusal } from "~/server/platform/index.server";\n' +
    "export const lines = (r?: Refusal) => (r ? [] : listProducts());\n",
  // catalog → commerce: an import up the ladder, closing a circle between the two areas at folder
  // level although no file imports a file that imports it back.
  "app/server/catalog/products/reorders.server.ts":
    'import { reload } from "../../commerce/index.server";\n' + "export const reorders = () => reload();\n",
  // Allowed: a unit test may reach into another area's internals.
  "app/server/commerce/orders/lines.server.test.ts":
    'import { listProducts } from "../../catalog/products/products.server";\n' +
    "export const t = listProducts;\n",
  "app/lib/catalog-view.ts": "export type ProductView = { id: string; name: string };\n",
  // lib → server (a value, through the alias).
  "app/lib/prices.ts":
    'import { listProducts } from "~/server/catalog/index.server";\n' +
    "export const prices = () => listProducts();\n",
  // lib → server (`import type`, relative).
  "app/lib/order-types.ts":
    'import type { Refusal } from "../server/platform/refusal.server";\n' + "export type OrderRefusal = Refusal;\n",
  // lib → components.
  "app/lib/badge-text.ts": 'import { Badge } from "~/components/store/badge";\n' + "export const b = Badge;\n",
  "app/components/store/badge.tsx":
    'import type { ProductView } from "~/lib/catalog-view";\n' +
    "export function Badge(props?: { product: ProductView }) { return props ? null : null; }\n",
  // component → server (`import type`).
  "app/components/store/order-row.tsx":
    'import type { Refusal } from "~/server/platform/index.server";\n' +
    "export function OrderRow(props: { refusal: Refusal }) { return props.refusal.message; }\n",
  // component → server (a value, relative).
  "app/components/admin/products.tsx":
    'import { listProducts } from "../../server/catalog/index.server";\n' +
    "export function Products() { return listProducts().length; }\n",
  // ui → a shop component.
  "app/components/ui/button.tsx":
    'import { Badge } from "../store/badge";\n' + "export function Button() { return Badge(); }\n",
  // Allowed: a route calls an area's face and platform's route kit, and renders components.
  "app/routes/store/product.tsx":
    'import { listProducts } from "~/server/catalog/index.server";\n' +
    'import { env } from "~/server/platform/http/index.server";\n' +
    'import type { Refusal } from "../../server/platform/http/index.server";\n' +
    'import { Badge } from "~/components/store/badge";\n' +
    "export function loader(r?: Refusal) { return r ? [] : env.port ? listProducts() : []; }\n" +
    "export default function Product() { return Badge(); }\n",
  // A route → an area's internals.
  "app/routes/store/category.tsx":
    'import { listProducts } from "~/server/catalog/products/products.server";\n' +
    "export function loader() { return listProducts(); }\n",
  // A route → platform's whole face instead of the route kit.
  "app/routes/store/cart.tsx":
    'import { env } from "~/server/platform/index.server";\n' + "export function loader() { return env.port; }\n",
  // A route → an adapter: the storage (through the alias) and a mail transport (relative).
  "app/routes/resources/media.ts":
    'import { getStorage } from "~/server/platform/storage/storage.server";\n' +
    "export function loader() { return getStorage(); }\n",
  "app/routes/store/contact.tsx":
    'import { sendMail } from "../../server/platform/mail/transport.server";\n' +
    "export function action() { return sendMail('shop@example.test'); }\n",
  // root.tsx → platform's whole face.
  "app/root.tsx":
    'import { env } from "./server/platform/index.server";\n' + "export function loader() { return env.port; }\n",
  // An area → the route kit: areas use platform's own face.
  "app/server/commerce/orders/kit.server.ts":
    'import { env } from "~/server/platform/http/index.server";\n' + "export const kit = env;\n",
  // A two-file circle.
  "app/lib/circle-a.ts": 'import { b } from "./circle-b";\n' + "export const a = () => b;\n",
  "app/lib/circle-b.ts": 'import { a } from "./circle-a";\n' + "export const b = () => a;\n",
  // A circle closed by a dynamic import.
  "scripts/job-a.ts": 'export async function runA() { return (await import("./job-b")).runB; }\n',
  "scripts/job-b.ts": 'import { runA } from "./job-a";\n' + "export const runB = () => runA;\n",
  // A circle of type-only imports.
  "server/hooks.ts": 'import type { Types } from "./types";\n' + "export type Hooks = { types?: Types };\n",
  "server/types.ts": 'import type { Hooks } from "./hooks";\n' + "export type Types = { hooks?: Hooks };\n",
};

describe("layer rules", () => {
  let tree: string;

  beforeAll(() => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), "layer-rules-"));
    fs.copyFileSync(path.join(ROOT, "tsconfig.json"), path.join(tree, "tsconfig.json"));
    for (const [file, text] of Object.entries(FIXTURES)) {
      fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      fs.writeFileSync(path.join(tree, file), text);
    }
  });

  afterAll(() => {
    if (tree) fs.rmSync(tree, { recursive: true, force: true });
  });

  it("reports every broken rule under its name, and nothing that is allowed", () => {
    const violations = violationsIn(tree);
    expect(violations.every((v) => v.rule.severity === "error")).toBe(true);

    const layerBreaks = violations.filter((v) => v.rule.name !== "no-circular").map(line).sort();
    expect(layerBreaks).toEqual(
      [
        "lib-not-to-server: app/lib/prices.ts → app/server/catalog/index.server.ts",
        "lib-not-to-server: app/lib/order-types.ts → app/server/platform/refusal.server.ts",
        "components-not-to-server: app/components/store/order-row.tsx → app/server/platform/index.server.ts",
        "components-not-to-server: app/components/admin/products.tsx → app/server/catalog/index.server.ts",
        "server-not-to-routes-or-components: app/server/commerce/orders/reload.server.ts → app/routes/store/product.tsx",
        "server-not-to-routes-or-components: app/server/commerce/orders/badge.server.ts → app/components/store/badge.tsx",
        "db-only-to-db-env-logger-refusal: app/server/platform/db/counts.server.ts → app/server/catalog/products/products.server.ts",
        "db-only-to-db-env-logger-refusal: app/server/platform/db/views.server.ts → app/lib/catalog-view.ts",
        "platform-imports-only-itself: app/server/platform/db/counts.server.ts → app/server/catalog/products/products.server.ts",
        "catalog-imports-only-platform: app/server/catalog/products/reorders.server.ts → app/server/commerce/index.server.ts",
        "other-areas-through-the-face: app/server/commerce/orders/reload.server.ts → app/server/catalog/products/products.server.ts",
        "other-areas-through-the-face: app/server/platform/db/counts.server.ts → app/server/catalog/products/products.server.ts",
        "routes-through-the-faces: app/routes/store/category.tsx → app/server/catalog/products/products.server.ts",
        "routes-through-the-faces: app/routes/store/cart.tsx → app/server/platform/index.server.ts",
        "routes-through-the-faces: app/routes/resources/media.ts → app/server/platform/storage/storage.server.ts",
        "routes-through-the-faces: app/routes/store/contact.tsx → app/server/platform/mail/transport.server.ts",
        "routes-through-the-faces: app/root.tsx → app/server/platform/index.server.ts",
        "other-areas-through-the-face: app/server/commerce/orders/kit.server.ts → app/server/platform/http/index.server.ts",
        // Each pair of areas importing each other, whichever files do it: catalog ↔ commerce
        // (through faces only) and platform ↔ catalog.
        "no-area-circle: app/server/catalog → app/server/commerce",
        "no-area-circle: app/server/commerce → app/server/catalog",
        "no-area-circle: app/server/catalog → app/server/platform",
        "no-area-circle: app/server/commerce → app/server/platform",
        "ui-not-to-shop-components: app/components/ui/button.tsx → app/components/store/badge.tsx",
        "lib-not-to-components: app/lib/badge-text.ts → app/components/store/badge.tsx",
      ].sort(),
    );

    // Each circle is reported (once or once per member); compare them as sets of members.
    const circles = new Set(
      violations
        .filter((v) => v.rule.name === "no-circular")
        .map((v) => [...new Set([v.from, ...(v.cycle ?? []).map((c) => c.name)])].sort().join(" ")),
    );
    expect([...circles].sort()).toEqual(
      [
        "app/lib/circle-a.ts app/lib/circle-b.ts",
        "scripts/job-a.ts scripts/job-b.ts",
        "server/hooks.ts server/types.ts",
      ].sort(),
    );
  });

  it("fails the command npm test runs, naming each rule", () => {
    const r = run(tree, "err-long");
    expect(r.status).not.toBe(0);
    for (const rule of [
      "lib-not-to-server",
      "components-not-to-server",
      "server-not-to-routes-or-components",
      "db-only-to-db-env-logger-refusal",
      "platform-imports-only-itself",
      "catalog-imports-only-platform",
      "other-areas-through-the-face",
      "routes-through-the-faces",
      "no-area-circle",
      "ui-not-to-shop-components",
      "lib-not-to-components",
      "no-circular",
    ]) {
      expect(r.stdout).toContain(`error ${rule}: `);
    }
  });

  // Two cruises of the whole tree (about 10 s of CPU each): more than the default 30 s on a busy
  // machine, so this test has room of its own.
  it("passes on the real tree", { timeout: 180_000 }, () => {
    expect(violationsIn(ROOT).map(line)).toEqual([]);
    const r = run(ROOT, "err-long");
    expect(r.stdout).toContain("no dependency violations found");
    expect(r.status).toBe(0);
  });
});
