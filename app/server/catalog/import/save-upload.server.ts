import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { DomainError } from "../../platform/index.server";
import { looksLikeNonCsv } from "./csv-reader.server";

/** An upload stopped while it streamed in: over the byte limit, or not a text (CSV) file. */
export class UploadRefused extends DomainError<"too_large" | "unsupported_type"> {
  constructor(readonly reason: "too-large" | "not-csv") {
    super(reason, reason === "too-large" ? "too_large" : "unsupported_type");
  }
}

/**
 * Streams an upload body to a file, chunk by chunk (never the whole file in memory), refusing it
 * as soon as it passes `maxBytes` or its first bytes show it is not text. Returns the byte count;
 * a refused or broken upload leaves no file behind.
 */
export async function saveUpload(body: AsyncIterable<Uint8Array>, file: string, maxBytes: number): Promise<number> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file, { flags: "wx" });
  let bytes = 0;
  let first = true;
  try {
    for await (const chunk of body) {
      if (first && chunk.byteLength > 0) {
        first = false;
        if (looksLikeNonCsv(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) throw new UploadRefused("not-csv");
      }
      bytes += chunk.byteLength;
      if (bytes > maxBytes) throw new UploadRefused("too-large");
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    return bytes;
  } catch (err) {
    out.destroy();
    fs.rmSync(file, { force: true });
    throw err;
  }
}
