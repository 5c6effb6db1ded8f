import { data } from "react-router";
import { z } from "zod";
import { fieldErrors, firstError, type AdminActionResult } from "~/lib/product-input";
import { CatalogInputError, CategoryInUseError } from "~/server/catalog/index.server";
import { logger } from "~/server/platform/http/index.server";
import { respond } from "./errors.server";

/**
 * Runs one admin catalogue action and answers with the toast to show. Bad input and refusals
 * become 400/404/409 with a message (never a 500); an unexpected failure is logged and answered
 * with a generic message.
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
      return respond<AdminActionResult>(
        { kind: "bad_input" },
        { ok: false, title: failureTitle, message: firstError(err), errors: fieldErrors(err) },
      );
    }
    if (err instanceof CategoryInUseError) {
      return respond<AdminActionResult>(err, {
        ok: false,
        title: failureTitle,
        message: err.message,
        code: "category_in_use",
        productCount: err.productCount,
      });
    }
    if (err instanceof CatalogInputError) {
      return respond<AdminActionResult>(err, {
        ok: false,
        title: failureTitle,
        message: err.message,
        errors: err.field ? { [err.field]: err.message } : undefined,
        code: err.code,
      });
    }
    logger.error({ err }, failureTitle);
    return respond<AdminActionResult>(
      { kind: "failed" },
      { ok: false, title: failureTitle, message: "Something went wrong on our side. Please try again." },
    );
  }
}

export function unknownIntent() {
  return respond<AdminActionResult>({ kind: "bad_input" }, { ok: false, title: "Unknown action", message: "This action is not supported" });
}
