import { data } from "react-router";
import { z } from "zod";
import { fieldErrors, firstError, type AdminActionResult } from "~/lib/product-input";
import { logger } from "../logger.server";
import { CatalogInputError } from "./admin-errors.server";
import { CategoryInUseError } from "./categories.server";

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
  if (!parsed.success) throw new CatalogInputError(`${what} not found`, 404);
  return parsed.data;
}

/**
 * Runs one admin action and answers with the toast to show. Bad input becomes 400/404/409 with a
 * message (never a 500); an unexpected failure is logged and answered with a generic message.
 */
export async function runAdminAction(
  failureTitle: string,
  fn: () => Promise<{ message?: string; [extra: string]: unknown }>,
) {
  try {
    const result = await fn();
    return data<AdminActionResult>({ ok: true, ...result });
  } catch (err) {
    if (err instanceof z.ZodError) {
      return data<AdminActionResult>(
        { ok: false, title: failureTitle, message: firstError(err), errors: fieldErrors(err) },
        { status: 400 },
      );
    }
    if (err instanceof CategoryInUseError) {
      return data<AdminActionResult>(
        { ok: false, title: failureTitle, message: err.message, code: "category_in_use", productCount: err.productCount },
        { status: 409 },
      );
    }
    if (err instanceof CatalogInputError) {
      return data<AdminActionResult>(
        {
          ok: false,
          title: failureTitle,
          message: err.message,
          errors: err.field ? { [err.field]: err.message } : undefined,
          code: err.code,
        },
        { status: err.status },
      );
    }
    logger.error({ err }, failureTitle);
    return data<AdminActionResult>(
      { ok: false, title: failureTitle, message: "Something went wrong on our side. Please try again." },
      { status: 500 },
    );
  }
}

export function unknownIntent() {
  return data<AdminActionResult>({ ok: false, title: "Unknown action", message: "This action is not supported" }, { status: 400 });
}
