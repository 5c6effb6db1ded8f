import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loader } from "~/routes/resources/resized-image";
import { getStorage } from "~/server/platform/storage/storage.server";

const call = (width: string, key: string) =>
  loader({ request: new Request(`http://localhost:3000/resized/${width}/${key}`), params: { width, "*": key }, context: {} } as never);

async function putImage(key: string, width: number, height: number) {
  const png = await sharp({ create: { width, height, channels: 3, background: "#c8643b" } }).png().toBuffer();
  await getStorage().put(key, png, "image/png");
}

describe("/resized/<width>/<key>", () => {
  it("serves a WebP of the requested width, made once and cached", async () => {
    await putImage("tests/wide.png", 1000, 600);
    const res = (await call("320", "tests/wide.png")) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toContain("immutable");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 320, height: 192 });
    const again = (await call("320", "tests/wide.png")) as Response;
    expect((await again.arrayBuffer()).byteLength).toBe(Number(res.headers.get("content-length")));
  });

  it("never enlarges a small image", async () => {
    await putImage("tests/small.png", 200, 200);
    const res = (await call("640", "tests/small.png")) as Response;
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(200);
  });

  it("answers 404 for other widths, missing files, unsafe keys and non-images", async () => {
    await putImage("tests/ok.png", 400, 400);
    await getStorage().put("tests/notes.txt", Buffer.from("hello"), "text/plain");
    for (const [width, key] of [
      ["321", "tests/ok.png"],
      ["abc", "tests/ok.png"],
      ["320", "tests/missing.png"],
      ["320", "../secrets.json"],
      ["320", "tests/../../etc/passwd.png"],
      ["320", "tests/notes.txt"],
      ["320", ".resized/320/tests/ok.png.webp"],
    ]) {
      expect(((await call(width!, key!)) as Response).status, `${width} ${key}`).toBe(404);
    }
  });
});
