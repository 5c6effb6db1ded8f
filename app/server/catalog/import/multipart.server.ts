import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import Busboy from "busboy";
import { DomainError } from "../../platform/index.server";

/** A multipart upload without a file part, or one that cannot be read as a form (bad input). */
export class MultipartError extends DomainError<"bad_input"> {
  override name = "MultipartError";

  constructor(message: string) {
    super(message, "bad_input");
  }
}

/**
 * The first file of a multipart/form-data body, as a stream: for clients that post a form
 * (`curl -F file=@products.csv`) rather than the raw file. Nothing is buffered; the part is read
 * as it arrives. `maxBytes + 1` lets the caller's own counter see that the limit was passed.
 */
export function fileFromMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  maxBytes: number,
): Promise<{ stream: Readable; fileName: string; mimeType: string }> {
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({ headers: { "content-type": contentType }, limits: { files: 1, fileSize: maxBytes + 1, fields: 20, parts: 40 } });
    } catch {
      reject(new MultipartError("The upload is not a valid form"));
      return;
    }
    let found = false;
    parser.on("file", (_field, stream, info) => {
      if (found) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ stream, fileName: info.filename ?? "", mimeType: info.mimeType ?? "" });
    });
    parser.on("error", (err) => reject(new MultipartError((err as Error).message)));
    parser.on("close", () => {
      if (!found) reject(new MultipartError("No file was sent: choose a CSV file"));
    });
    Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>).pipe(parser);
  });
}
