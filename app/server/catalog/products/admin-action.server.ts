import { z } from "zod";
import { CatalogInputError } from "./admin-errors.server";

/** The body of an admin action, sent as JSON by the dialogs or as a plain form. */
export async function readActionBody(request: Request): Promise<Record<string, unknown>> {
  try {
    if ((request.headers.get("content-type") ?? "").includes("application/json")) {
      const body: unknown = await request.json();
      return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    }
    return Object.fromEntries(await request.formData());
  } catch {
    return {};
  }
}

/** A product, category or variation id from the request; anything else is simply not found. */
export function idFrom(value: unknown, what = "Item"): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new CatalogInputError(`${what} not found`, "not_found");
  return parsed.data;
}
