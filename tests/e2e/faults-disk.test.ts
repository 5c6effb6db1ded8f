import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../setup/database";
import { makePng } from "../factories/images";
import { createSession, makeAdmin, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET } from "./harness";
import { spawnShop, tempDataDir, type ShopProcess } from "./faults-harness";

/**
 * A fault the shop survives: a full disk for uploads. The uploads folder is a real 256 KB tmpfs
 * (the suite runs as root, as CI does), filled to the last byte; an upload then fails with a clear
 * message, leaves no partial file, keeps the earlier image intact, and works again once there is
 * room.
 */
let test: TestDatabase;
let dataDir: string;
let uploads: string;
let shop: ShopProcess | undefined;
let cookie = "";

beforeAll(async () => {
  test = await createTestDatabase();
  dataDir = tempDataDir();
  uploads = path.join(dataDir, "uploads");
  fs.mkdirSync(uploads, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", uploads], { stdio: "pipe" });
  } catch (err) {
    throw new Error(`This test mounts a small tmpfs and needs root (as CI has): ${(err as Error).message}`);
  }
  shop = await spawnShop({ databaseUrl: test.url, dataDir });
  const admin = await makeAdmin(test.db);
  cookie = `${SESSION_COOKIE}=${(await createSession(test.db, admin.id, E2E_AUTH_SECRET)).cookieValue}`;
}, 60_000);

afterAll(async () => {
  await shop?.stop();
  if (uploads) execFileSync("umount", [uploads], { stdio: "ignore" });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  await test?.drop();
});

async function uploadLogo(png: Buffer) {
  const form = new FormData();
  form.set("intent", "upload-logo");
  form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "logo.png");
  const res = await fetch(`${shop!.baseUrl}/admin/site-settings`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: shop!.baseUrl },
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

/** Writes until the file system refuses: not a byte left. */
function fillDisk(file: string) {
  const fd = fs.openSync(file, "w");
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  } finally {
    fs.closeSync(fd);
  }
}

const files = () => fs.readdirSync(uploads, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(uploads, f)).isFile()).sort();

describe("a full disk for uploads", () => {
  it("refuses the upload with a clear message, corrupts nothing, and recovers when space is freed", async () => {
    const first = await uploadLogo(await makePng(64, 48, "#2e86c1"));
    expect(first.status).toBe(200);
    const [logo] = files();
    expect(logo).toMatch(/logo/);
    const logoBytes = fs.readFileSync(path.join(uploads, logo!));

    const filler = path.join(uploads, "filler.bin");
    fillDisk(filler);
    const refused = await uploadLogo(await makePng(320, 240, "#27ae60"));
    expect(refused.status).toBe(500);
    expect(refused.text).toContain("Failed to upload image");
    expect(refused.text).toContain("The image could not be stored. Please try again.");
    expect(refused.text).not.toMatch(/ENOSPC|no space left/i);

    // Nothing half-written, the earlier image untouched and still served.
    expect(files()).toEqual([logo, "filler.bin"].sort());
    expect(fs.readFileSync(path.join(uploads, logo!)).equals(logoBytes)).toBe(true);
    const served = await fetch(`${shop!.baseUrl}/media/${logo}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(logoBytes)).toBe(true);
    expect((await fetch(`${shop!.baseUrl}/`)).status).toBe(200);

    fs.rmSync(filler);
    const again = await uploadLogo(await makePng(320, 240, "#27ae60"));
    expect(again.status).toBe(200);
    expect(files()).toHaveLength(2);
  }, 60_000);
});
