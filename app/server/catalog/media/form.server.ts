import { formatBytes } from "~/lib/format";
import { BodyTooLargeError, getEnv, readFormWithLimit } from "../../platform/index.server";
import { UploadError } from "./upload.server";

/** Room for the multipart boundaries and the other fields next to the file. */
const FORM_OVERHEAD = 64 * 1024;

/** Past this, an oversized body is cut off instead of read to the end (see BodyLimitOptions). */
const DRAIN_CAP = 64 * 1024 * 1024;

/**
 * Reads a multipart form that carries an upload without ever keeping more than the size cap in
 * memory. A body (declared or actual) over the cap is refused with
 * UploadError("The file is larger than 5 MB.").
 */
export async function readUploadForm(request: Request, maxBytes = getEnv().UPLOAD_MAX_BYTES): Promise<FormData> {
  try {
    return await readFormWithLimit(request, maxBytes + FORM_OVERHEAD, { drainUpTo: DRAIN_CAP });
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new UploadError(`The file is larger than ${formatBytes(maxBytes)}.`, "too_large");
    throw err;
  }
}

/** The uploaded file in `field`, or an UploadError when none was chosen. */
export function formFile(form: FormData, field: string): File {
  const value = form.get(field);
  if (!(value instanceof File) || value.size === 0) throw new UploadError("Choose an image file to upload.");
  return value;
}
