import { PUBLIC_FORM_MAX_BYTES, readPublicFormBody } from "~/server/platform/http/index.server";
import { respond } from "./errors.server";

/**
 * A form posted to a page anyone can reach (app/server/platform/http/read-body.server.ts counts it as it
 * arrives). Too large: throws 413 `{ error: "The request is too large." }`; not a form: 400
 * `{ error: "The form could not be read." }`.
 */
export async function readPublicForm(request: Request, maxBytes = PUBLIC_FORM_MAX_BYTES): Promise<FormData> {
  const r = await readPublicFormBody(request, maxBytes);
  if (!r.ok) throw respond(r.refusal);
  return r.form;
}
