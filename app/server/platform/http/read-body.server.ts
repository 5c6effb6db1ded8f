import { DomainError, type Refusal } from "../refusal.server";

/** A request body larger than the route allows. */
export class BodyTooLargeError extends DomainError<"too_large"> {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`, "too_large");
  }
}

/** A drain large enough for the forms and JSON saves an admin's browser sends. */
export const BROWSER_DRAIN_BYTES = 32 * 1024 * 1024;

/**
 * How much of an oversized body is read and thrown away when the route names no drain of its own.
 * A body a little over the limit (most oversized requests) is then read to its end, and the client
 * receives the 413 whole, not a reset while it is still sending.
 */
export const DEFAULT_DRAIN_BYTES = 4 * 1024 * 1024;

export type BodyLimitOptions = {
  /**
   * Once past the limit, read and throw away the rest, up to this many bytes in all
   * (DEFAULT_DRAIN_BYTES unless given; browsers' forms and uploads give more), so the client
   * receives the refusal: a server that answers and closes while the body is still arriving makes
   * browsers report a network error and other clients a reset. A body declared larger than this is
   * not read at all, and one that turns out larger is read no further. Either way the request is
   * never cancelled, which would destroy the connection before the answer could go out: the
   * answer is a 413, and the connection is closed after it (app/server/platform/http/unread-body.server.ts).
   */
  drainUpTo?: number;
};

/**
 * Reads a request body while counting: nothing beyond `maxBytes` is ever held in memory, whatever
 * Content-Length claims (or omits); request.text() has no limit.
 */
export async function readBodyBytes(request: Request, maxBytes: number, opts: BodyLimitOptions = {}): Promise<Buffer> {
  const drainUpTo = opts.drainUpTo ?? DEFAULT_DRAIN_BYTES;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    if (declared <= drainUpTo) await drain(request.body?.getReader(), 0, drainUpTo);
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
      await drain(reader, size, drainUpTo);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and discards the rest of a body, up to `upTo` bytes in all. Past that it stops reading
 * but does not cancel: cancelling the request's stream destroys the socket at once, before the
 * refusal is sent.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array> | undefined, alreadyRead: number, upTo: number) {
  if (!reader) return;
  let read = alreadyRead;
  try {
    while (read <= upTo) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    reader.releaseLock();
  } catch {
    // The client went away; nothing to answer.
  }
}

/**
 * The body's chunks, for a route that streams it on (an import to disk) and counts it itself.
 * Leaving the loop early (a refusal) releases the body without cancelling it: cancelling would
 * destroy the connection before the refusal is sent. Then discardBody() reads what is left.
 */
export function bodyChunks(request: Request): AsyncIterable<Uint8Array> | null {
  const body = request.body;
  if (!body) return null;
  return {
    async *[Symbol.asyncIterator]() {
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}

/**
 * Reads and throws away what is left of a refused body, up to `upTo` bytes (none when its declared
 * size is larger), so the client receives the refusal rather than a reset while still sending.
 */
export async function discardBody(request: Request, upTo = DEFAULT_DRAIN_BYTES): Promise<void> {
  if (!request.body || request.body.locked) return;
  if (Number(request.headers.get("content-length") ?? "0") > upTo) return;
  await drain(request.body.getReader(), 0, upTo);
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

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: string; /** Answered 413, not 400. */ tooLarge?: true };

/** A JSON body, or a message saying why it is not one (not JSON, too large). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  let text: string;
  try {
    text = await readBodyText(request, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { ok: false, error: "The request is too large.", tooLarge: true };
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
