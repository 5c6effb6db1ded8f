-- Storefront searches per month (search_terms_monthly), kept from search_terms_daily by
-- statement-level triggers: the visit counter writes its batches as one INSERT … ON CONFLICT
-- DO UPDATE, whose inserted and updated rows arrive here as transition tables and are added to
-- their months in one statement (months and terms in order, the same order in every writer).
-- A year's top searches then read ~12 rows per term instead of 365 (docs/decisions/0019).
--
-- sales_rollups_rebuild() (migration 0018) now also rebuilds this table, so the one call a bulk
-- load makes after loading with triggers off brings every sales and search roll-up up to date.
CREATE OR REPLACE FUNCTION "search_terms_monthly_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "search_terms_daily" IN SHARE MODE;
  TRUNCATE "search_terms_monthly";
  INSERT INTO "search_terms_monthly" ("month", "term", "searches", "empty_searches")
    SELECT date_trunc('month', "day")::date, "term", sum("searches"), sum("empty_searches")
      FROM "search_terms_daily" GROUP BY 1, 2;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "search_terms_monthly_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its trigger has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "search_terms_monthly" AS m ("month", "term", "searches", "empty_searches")
      SELECT date_trunc('month', "day")::date, "term", sum("searches"), sum("empty_searches")
        FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("month", "term") DO UPDATE SET
      "searches" = m."searches" + excluded."searches",
      "empty_searches" = m."empty_searches" + excluded."empty_searches";
  ELSIF TG_OP = 'UPDATE' THEN
    -- What each row gained (or lost), added to its month.
    INSERT INTO "search_terms_monthly" AS m ("month", "term", "searches", "empty_searches")
      SELECT date_trunc('month', x."day")::date, x."term", sum(x.s), sum(x.e)
        FROM (
          SELECT o."day", o."term", -o."searches" AS s, -o."empty_searches" AS e FROM old_rows o
          UNION ALL
          SELECT n."day", n."term", n."searches", n."empty_searches" FROM new_rows n
        ) x
        GROUP BY 1, 2
        HAVING sum(x.s) <> 0 OR sum(x.e) <> 0
        ORDER BY 1, 2
    ON CONFLICT ("month", "term") DO UPDATE SET
      "searches" = m."searches" + excluded."searches",
      "empty_searches" = m."empty_searches" + excluded."empty_searches";
    DELETE FROM "search_terms_monthly" m
      USING (SELECT DISTINCT date_trunc('month', "day")::date AS month, "term" FROM old_rows) o
      WHERE m."month" = o.month AND m."term" = o."term" AND m."searches" = 0 AND m."empty_searches" = 0;
  ELSE
    UPDATE "search_terms_monthly" m SET
        "searches" = m."searches" - o.s, "empty_searches" = m."empty_searches" - o.e
      FROM (
        SELECT date_trunc('month', "day")::date AS month, "term", sum("searches") AS s, sum("empty_searches") AS e
          FROM old_rows GROUP BY 1, 2
      ) o
      WHERE m."month" = o.month AND m."term" = o."term";
    DELETE FROM "search_terms_monthly" m
      USING (SELECT DISTINCT date_trunc('month', "day")::date AS month, "term" FROM old_rows) o
      WHERE m."month" = o.month AND m."term" = o."term" AND m."searches" = 0 AND m."empty_searches" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "search_terms_monthly_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "search_terms_monthly";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "search_terms_monthly_insert" AFTER INSERT ON "search_terms_daily"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "search_terms_monthly_changed"();
--> statement-breakpoint
CREATE TRIGGER "search_terms_monthly_update" AFTER UPDATE ON "search_terms_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "search_terms_monthly_changed"();
--> statement-breakpoint
CREATE TRIGGER "search_terms_monthly_delete" AFTER DELETE ON "search_terms_daily"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "search_terms_monthly_changed"();
--> statement-breakpoint
CREATE TRIGGER "search_terms_monthly_truncate" AFTER TRUNCATE ON "search_terms_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "search_terms_monthly_after_truncate"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_rollups_rebuild"()
RETURNS void LANGUAGE plpgsql SET "work_mem" = '256MB' AS $$
BEGIN
  -- Writers wait until the new figures are committed; the ones in flight commit first.
  LOCK TABLE "orders", "order_items" IN SHARE MODE;
  TRUNCATE "sales_counted_orders", "sales_daily", "sales_daily_products", "sales_monthly_products",
    "sales_daily_categories", "first_orders_daily", "repeat_orders_daily";

  INSERT INTO "sales_counted_orders" ("order_id", "day", "paid_at", "email_key", "previous_day", "revenue_cents", "units",
      "subtotal_cents", "discount_cents", "shipping_cents", "tax_cents", "discounted", "product_ids", "categories",
      "product_units", "product_revenue_cents")
  WITH counted AS (
    SELECT o."id", coalesce(o."paid_at", o."created_at") AS paid_at, lower(o."email") AS email_key,
        o."total_amount_cents", o."subtotal_cents", o."discount_cents", o."shipping_cents", o."tax_cents",
        coalesce(o."discount_code", '') <> '' AS discounted
      FROM "orders" o
      WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled'
  ), products_of AS (
    SELECT i."order_id", coalesce(i."product_id", '00000000-0000-0000-0000-000000000000'::uuid) AS pid,
        min(coalesce(p."category", 'Deleted products')) AS cat,
        sum(i."quantity")::integer AS units,
        sum(i."line_total_cents" - i."discount_cents")::bigint AS rev
      FROM "order_items" i
      JOIN counted c ON c."id" = i."order_id"
      LEFT JOIN "products" p ON p."id" = i."product_id"
      GROUP BY 1, 2
  ), per_order AS (
    SELECT "order_id", sum(units)::integer AS units, array_agg(pid ORDER BY pid) AS pids, array_agg(cat ORDER BY pid) AS cats,
        array_agg(units ORDER BY pid) AS us, array_agg(rev ORDER BY pid) AS revs
      FROM products_of GROUP BY "order_id"
  )
  SELECT c."id", (c.paid_at AT TIME ZONE 'UTC')::date, c.paid_at, c.email_key,
      lag((c.paid_at AT TIME ZONE 'UTC')::date) OVER (PARTITION BY c.email_key ORDER BY c.paid_at, c."id"),
      c."total_amount_cents", coalesce(l.units, 0), c."subtotal_cents", c."discount_cents", c."shipping_cents",
      c."tax_cents", c.discounted, coalesce(l.pids, '{}'), coalesce(l.cats, '{}'), coalesce(l.us, '{}'), coalesce(l.revs, '{}')
    FROM counted c LEFT JOIN per_order l ON l."order_id" = c."id";

  INSERT INTO "sales_daily" ("day", "orders", "revenue_cents", "units", "subtotal_cents", "discount_cents",
      "shipping_cents", "tax_cents", "discounted_orders")
    SELECT "day", count(*), sum("revenue_cents"), sum("units"), sum("subtotal_cents"), sum("discount_cents"),
        sum("shipping_cents"), sum("tax_cents"), count(*) FILTER (WHERE "discounted")
      FROM "sales_counted_orders" GROUP BY "day";

  INSERT INTO "sales_daily_products" ("day", "product_id", "name", "category", "units", "revenue_cents")
    SELECT s."day", u.pid, coalesce(min(p."name"), 'Deleted products'), min(u.cat), sum(u.units), sum(u.rev)
      FROM "sales_counted_orders" s
      CROSS JOIN LATERAL unnest(s."product_ids", s."categories", s."product_units", s."product_revenue_cents") AS u(pid, cat, units, rev)
      LEFT JOIN "products" p ON p."id" = u.pid
      GROUP BY s."day", u.pid;

  INSERT INTO "sales_monthly_products" ("month", "product_id", "name", "category", "units", "revenue_cents")
    SELECT date_trunc('month', "day")::date, "product_id", (array_agg("name" ORDER BY "day" DESC))[1],
        (array_agg("category" ORDER BY "day" DESC))[1], sum("units"), sum("revenue_cents")
      FROM "sales_daily_products" GROUP BY 1, 2;

  INSERT INTO "sales_daily_categories" ("day", "category", "units", "revenue_cents")
    SELECT s."day", u.cat, sum(u.units), sum(u.rev)
      FROM "sales_counted_orders" s
      CROSS JOIN LATERAL unnest(s."categories", s."product_units", s."product_revenue_cents") AS u(cat, units, rev)
      GROUP BY 1, 2;

  INSERT INTO "first_orders_daily" ("day", "customers")
    SELECT "day", count(*) FROM "sales_counted_orders" WHERE "previous_day" IS NULL GROUP BY 1;
  INSERT INTO "repeat_orders_daily" ("day", "previous_day", "orders")
    SELECT "day", "previous_day", count(*) FROM "sales_counted_orders" WHERE "previous_day" IS NOT NULL GROUP BY 1, 2;

  -- The owner's other roll-up of roll-ups, rebuilt with these after a bulk load.
  PERFORM "search_terms_monthly_rebuild"();
END
$$;
--> statement-breakpoint
SELECT "search_terms_monthly_rebuild"();
