-- Exact counts of active products per category for the storefront (app/server/catalog).
-- Statement-level triggers with transition tables add one signed delta per category and
-- statement, so a bulk import or bulk edit costs one small upsert, and an update that changes
-- neither `active` nor `category` (prices, stock at checkout) touches no counter at all.
-- Writers are held off while the triggers are installed and the counts filled in.
LOCK TABLE "products" IN SHARE MODE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "product_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows are upserted in category order, so two writers always lock counters in the same order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "product_counts" AS c ("category", "active_count")
      SELECT "category", count(*) FROM new_rows WHERE "active" GROUP BY "category" ORDER BY "category"
    ON CONFLICT ("category") DO UPDATE SET "active_count" = c."active_count" + excluded."active_count";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "product_counts" AS c ("category", "active_count")
      SELECT "category", -count(*) FROM old_rows WHERE "active" GROUP BY "category" ORDER BY "category"
    ON CONFLICT ("category") DO UPDATE SET "active_count" = c."active_count" + excluded."active_count";
  ELSE
    INSERT INTO "product_counts" AS c ("category", "active_count")
      SELECT "category", sum(n) FROM (
        SELECT "category", 1 AS n FROM new_rows WHERE "active"
        UNION ALL
        SELECT "category", -1 AS n FROM old_rows WHERE "active"
      ) d
      GROUP BY "category" HAVING sum(n) <> 0 ORDER BY "category"
    ON CONFLICT ("category") DO UPDATE SET "active_count" = c."active_count" + excluded."active_count";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "product_counts_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "product_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "products_counts_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "product_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "products_counts_update" AFTER UPDATE ON "products"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "product_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "products_counts_delete" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "product_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "products_counts_truncate" AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_counts_reset"();
--> statement-breakpoint
DELETE FROM "product_counts";
--> statement-breakpoint
INSERT INTO "product_counts" ("category", "active_count")
  SELECT "category", count(*) FROM "products" WHERE "active" GROUP BY "category";
