/**
 * What the browser sees of an image migration (the Migrate Images tab): the per-product results
 * carried in the migration job's `result` (app/lib/jobs-view.ts). Plain types, safe to import
 * anywhere; app/server/catalog/media/migrate-images.server.ts builds these values and is annotated with them.
 */

/** One product's image, copied into the shop's storage or not (and why not). */
export type MigrationResult = { productId: string; productName: string; success: boolean; error: string | null };

/** A finished migration's counts and some of its results, failures preferred (JobView.result). */
export type MigrationOutcome = { migrated: number; failed: number; results: MigrationResult[] };
