import { logger } from "../../logger.server";

export type TemplateModule = typeof import("./all.server");

let loading: Promise<TemplateModule> | undefined;

/**
 * The mail templates, imported on first use (a separate chunk of the server build), so react-email
 * is not loaded while the shop starts. Import template functions through this, never statically.
 */
export function loadTemplates(): Promise<TemplateModule> {
  loading ??= import("./all.server").catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** Loads the templates in the background once the shop is up, so the first mail does not wait for them. */
export function warmUpMailTemplates() {
  loadTemplates().catch((err: unknown) => logger.warn({ err: (err as Error).message }, "mail templates could not be loaded yet"));
}
