import { DomainError, type Refusal } from "../refusal.server";

/** A request body larger than the route allows. */
export class BodyTooLargeError extends DomainError<"too_large"> {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`, "too_large");
  }
}

/** A drain large enough for the forms and JSON saves an admin's browser sends. */
export const BROWSER_DRAIN_BYTES = 32 * 1024 * 1024;

export type BodyLimitOptions = {
  /**
   * For bodies a browser sends (forms, uploads, the editor's save): once past the limit, read and
   * throw away the rest, up to this many bytes in all, so the browser receives the refusal: a
   * server that answers and closes while the body is still arriving makes browsers report a
   * network error instead. Without it an oversized body is cut off at once (API clients).
   */
  drainUpTo?: number;
};

/**
 * Reads a request body while counting: nothing beyond `maxBytes` is ever held in memory, whatever
 * Content-Length claims (or omits); request.text() has no limit.
 */
export async function readBodyBytes(request: Request, maxBytes: number, opts: BodyLimitOptions = {}): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    if (opts.drainUpTo !== undefined) await drain(request.body?.getReader(), 0, opts.drainUpTo);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      chunks.length = 0;
      if (opts.drainUpTo !== undefined) await drain(reader, size, opts.drainUpTo);
      else await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array> | undefined, alreadyRead: number, upTo: number) {
  if (!reader) return;
  let read = alreadyRead;
  try {
    while (read <= upTo) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away; nothing to answer.
  }
}

/** The body as text (a byte-order mark is dropped), under a byte limit. */
export async function readBodyText(request: Request, maxBytes: number, opts?: BodyLimitOptions): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes, opts));
}

/** JSON body under a byte limit; a malformed body is a plain `SyntaxError`. */
export async function readJsonWithLimit(request: Request, maxBytes: number, opts?: BodyLimitOptions): Promise<unknown> {
  const body = await readBodyBytes(request, maxBytes, opts);
  return JSON.parse(body.toString("utf8"));
}

/** Multipart or urlencoded form under a byte limit (parsed only after the size is known). */
export async function readFormWithLimit(request: Request, maxBytes: number, opts?: BodyLimitOptions): Promise<FormData> {
  const body = await readBodyBytes(request, maxBytes, opts);
  const copy = new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) });
  return copy.formData();
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: string };

/** A JSON body, or a message saying why it is not one (not JSON, too large). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  let text: string;
  try {
    text = await readBodyText(request, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { ok: false, error: "The request is too large." };
    throw err;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: "The request body must be JSON." };
  }
}

/** The public pages' forms (sign-in, contact, newsletter…) are a few KB. */
export const PUBLIC_FORM_MAX_BYTES = 64 * 1024;

export type PublicForm = { ok: true; form: FormData } | { ok: false; refusal: Refusal };

/**
 * A form posted to a page anyone can reach: never buffered beyond `maxBytes`, whatever the
 * request claims (a chunked body has no Content-Length). Refused when too large or not a form;
 * app/routes/_edge/body.server.ts's readPublicForm answers the refusal.
 */
export async function readPublicFormBody(request: Request, maxBytes = PUBLIC_FORM_MAX_BYTES): Promise<PublicForm> {
  try {
    return { ok: true, form: await readFormWithLimit(request, maxBytes, { drainUpTo: 1024 * 1024 }) };
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { ok: false, refusal: { kind: "too_large", message: "The request is too large." } };
    return { ok: false, refusal: { kind: "bad_input", message: "The form could not be read." } };
  }
}
