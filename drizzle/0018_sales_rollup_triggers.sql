-- The sales roll-ups (docs/rules/analytics.md, What counts as a sale; docs/decisions/0019):
-- sales_daily, sales_daily_products, sales_monthly_products, sales_daily_categories, and the
-- new/returning customer counts first_orders_daily and repeat_orders_daily, kept exact by
-- triggers on orders and order_items.
--
-- An order counts while it is paid and not cancelled (a refunded order is no longer 'paid'), on
-- the UTC day of its paid_at. sales_counted_orders is the ledger: one row per counted order with
-- exactly what it added, so when the order stops counting (or changes) the same figures are
-- taken back from the same rows, even if its product was renamed, recategorised or deleted since.
-- Each change re-syncs the order it touches: its figures now against its ledger row; equal means
-- nothing to do, so a missed or doubled event cannot leave a wrong figure.
--
-- The triggers are deferred constraint triggers: they run at COMMIT, after the transaction took
-- every other lock (stock, the order), so the roll-ups' hot rows (today's sales_daily row) are
-- locked last and only for the commit: a payment taking stock and a cancel returning it never
-- wait on each other through them. Changes of one customer serialise on an advisory lock
-- (class 7242019, one-number keys never meet it), so the previous/next order read for the
-- returning-customer counts includes orders committing at the same time (READ COMMITTED: each
-- statement reads a fresh snapshot after the lock is held).
--
-- sales_rollups_rebuild() recomputes everything from the orders: this migration's backfill, a bulk
-- load made with triggers off, a TRUNCATE.
CREATE OR REPLACE FUNCTION "sales_counted_order"(p_order uuid)
RETURNS "sales_counted_orders" LANGUAGE plpgsql STABLE AS $$
DECLARE
  r "sales_counted_orders";
BEGIN
  SELECT o."id", (coalesce(o."paid_at", o."created_at") AT TIME ZONE 'UTC')::date, coalesce(o."paid_at", o."created_at"),
      lower(o."email"), o."total_amount_cents", o."subtotal_cents", o."discount_cents", o."shipping_cents", o."tax_cents",
      coalesce(o."discount_code", '') <> ''
    INTO r."order_id", r."day", r."paid_at", r."email_key", r."revenue_cents", r."subtotal_cents", r."discount_cents",
      r."shipping_cents", r."tax_cents", r."discounted"
    FROM "orders" o
    WHERE o."id" = p_order AND o."payment_status" = 'paid' AND o."status" <> 'cancelled';
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- Per product (lines of one product summed): units, line totals less their discount share, and
  -- the product's category now. Lines of a deleted product count under the nil UUID.
  SELECT coalesce(sum(x.units), 0)::integer,
      coalesce(array_agg(x.pid ORDER BY x.pid), '{}'), coalesce(array_agg(x.cat ORDER BY x.pid), '{}'),
      coalesce(array_agg(x.units ORDER BY x.pid), '{}'), coalesce(array_agg(x.rev ORDER BY x.pid), '{}')
    INTO r."units", r."product_ids", r."categories", r."product_units", r."product_revenue_cents"
    FROM (
      SELECT coalesce(i."product_id", '00000000-0000-0000-0000-000000000000'::uuid) AS pid,
          min(coalesce(p."category", 'Deleted products')) AS cat,
          sum(i."quantity")::integer AS units,
          sum(i."line_total_cents" - i."discount_cents")::bigint AS rev
        FROM "order_items" i LEFT JOIN "products" p ON p."id" = i."product_id"
        WHERE i."order_id" = p_order
        GROUP BY 1
    ) x;
  RETURN r;
END
$$;
--> statement-breakpoint
-- Adds (p_sign 1) or takes back (-1) one ledger row's figures; rows that fall to zero go, so the
-- roll-ups hold the same rows a rebuild makes.
CREATE OR REPLACE FUNCTION "sales_rollups_apply"(r "sales_counted_orders", p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_month date := date_trunc('month', r."day")::date;
BEGIN
  INSERT INTO "sales_daily" AS s ("day", "orders", "revenue_cents", "units", "subtotal_cents", "discount_cents",
                                  "shipping_cents", "tax_cents", "discounted_orders")
    VALUES (r."day", p_sign, p_sign * r."revenue_cents", p_sign * r."units", p_sign * r."subtotal_cents",
            p_sign * r."discount_cents", p_sign * r."shipping_cents", p_sign * r."tax_cents",
            CASE WHEN r."discounted" THEN p_sign ELSE 0 END)
  ON CONFLICT ("day") DO UPDATE SET
    "orders" = s."orders" + excluded."orders",
    "revenue_cents" = s."revenue_cents" + excluded."revenue_cents",
    "units" = s."units" + excluded."units",
    "subtotal_cents" = s."subtotal_cents" + excluded."subtotal_cents",
    "discount_cents" = s."discount_cents" + excluded."discount_cents",
    "shipping_cents" = s."shipping_cents" + excluded."shipping_cents",
    "tax_cents" = s."tax_cents" + excluded."tax_cents",
    "discounted_orders" = s."discounted_orders" + excluded."discounted_orders";

  -- Products in id order, the same order in every transaction. A sale sets the row's name and
  -- category to the product's now; taking one back leaves them.
  INSERT INTO "sales_daily_products" AS s ("day", "product_id", "name", "category", "units", "revenue_cents")
    SELECT r."day", u.pid, coalesce(p."name", 'Deleted products'), u.cat, p_sign * u.units, p_sign * u.rev
      FROM unnest(r."product_ids", r."categories", r."product_units", r."product_revenue_cents") AS u(pid, cat, units, rev)
      LEFT JOIN "products" p ON p."id" = u.pid
      ORDER BY u.pid
  ON CONFLICT ("day", "product_id") DO UPDATE SET
    "units" = s."units" + excluded."units",
    "revenue_cents" = s."revenue_cents" + excluded."revenue_cents",
    "name" = CASE WHEN excluded."units" > 0 THEN excluded."name" ELSE s."name" END,
    "category" = CASE WHEN excluded."units" > 0 THEN excluded."category" ELSE s."category" END;

  INSERT INTO "sales_monthly_products" AS s ("month", "product_id", "name", "category", "units", "revenue_cents")
    SELECT v_month, u.pid, coalesce(p."name", 'Deleted products'), u.cat, p_sign * u.units, p_sign * u.rev
      FROM unnest(r."product_ids", r."categories", r."product_units", r."product_revenue_cents") AS u(pid, cat, units, rev)
      LEFT JOIN "products" p ON p."id" = u.pid
      ORDER BY u.pid
  ON CONFLICT ("month", "product_id") DO UPDATE SET
    "units" = s."units" + excluded."units",
    "revenue_cents" = s."revenue_cents" + excluded."revenue_cents",
    "name" = CASE WHEN excluded."units" > 0 THEN excluded."name" ELSE s."name" END,
    "category" = CASE WHEN excluded."units" > 0 THEN excluded."category" ELSE s."category" END;

  INSERT INTO "sales_daily_categories" AS s ("day", "category", "units", "revenue_cents")
    SELECT r."day", u.cat, p_sign * sum(u.units), p_sign * sum(u.rev)
      FROM unnest(r."categories", r."product_units", r."product_revenue_cents") AS u(cat, units, rev)
      GROUP BY u.cat
      ORDER BY u.cat
  ON CONFLICT ("day", "category") DO UPDATE SET
    "units" = s."units" + excluded."units",
    "revenue_cents" = s."revenue_cents" + excluded."revenue_cents";

  IF p_sign < 0 THEN
    DELETE FROM "sales_daily" WHERE "day" = r."day" AND "orders" = 0 AND "revenue_cents" = 0 AND "units" = 0
      AND "subtotal_cents" = 0 AND "discount_cents" = 0 AND "shipping_cents" = 0 AND "tax_cents" = 0 AND "discounted_orders" = 0;
    DELETE FROM "sales_daily_products" WHERE "day" = r."day" AND "product_id" = ANY (r."product_ids")
      AND "units" = 0 AND "revenue_cents" = 0;
    DELETE FROM "sales_monthly_products" WHERE "month" = v_month AND "product_id" = ANY (r."product_ids")
      AND "units" = 0 AND "revenue_cents" = 0;
    DELETE FROM "sales_daily_categories" WHERE "day" = r."day" AND "category" = ANY (r."categories")
      AND "units" = 0 AND "revenue_cents" = 0;
  END IF;
END
$$;
--> statement-breakpoint
-- One counted order in the customer counts: a first order (no previous one) makes a new
-- customer on its day; any other is a repeat order remembered with its previous order's day.
CREATE OR REPLACE FUNCTION "sales_customer_count"(p_day date, p_previous date, p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_previous IS NULL THEN
    INSERT INTO "first_orders_daily" AS f ("day", "customers") VALUES (p_day, p_sign)
      ON CONFLICT ("day") DO UPDATE SET "customers" = f."customers" + excluded."customers";
    IF p_sign < 0 THEN
      DELETE FROM "first_orders_daily" WHERE "day" = p_day AND "customers" = 0;
    END IF;
  ELSE
    INSERT INTO "repeat_orders_daily" AS f ("day", "previous_day", "orders") VALUES (p_day, p_previous, p_sign)
      ON CONFLICT ("day", "previous_day") DO UPDATE SET "orders" = f."orders" + excluded."orders";
    IF p_sign < 0 THEN
      DELETE FROM "repeat_orders_daily" WHERE "day" = p_day AND "previous_day" = p_previous AND "orders" = 0;
    END IF;
  END IF;
END
$$;
--> statement-breakpoint
-- Brings one order's share of the roll-ups up to date (the heart of every trigger).
CREATE OR REPLACE FUNCTION "sales_order_sync"(p_order uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  led "sales_counted_orders";
  cur "sales_counted_orders";
  nxt "sales_counted_orders";
  v_key text;
  i integer;
  k integer;
BEGIN
  SELECT * INTO led FROM "sales_counted_orders" WHERE "order_id" = p_order;
  cur := "sales_counted_order"(p_order);
  IF led."order_id" IS NULL AND cur."order_id" IS NULL THEN
    RETURN;
  END IF;

  -- One customer's changes one at a time (both customers, in order, when the address changed).
  FOR v_key IN SELECT DISTINCT x FROM unnest(ARRAY[led."email_key", cur."email_key"]) AS x WHERE x IS NOT NULL ORDER BY x LOOP
    PERFORM pg_advisory_xact_lock(7242019, hashtext(v_key));
  END LOOP;
  SELECT * INTO led FROM "sales_counted_orders" WHERE "order_id" = p_order;

  IF led."order_id" IS NOT NULL AND cur."order_id" IS NOT NULL THEN
    -- Still counted: products it was counted under keep the category they had then.
    FOR i IN 1 .. coalesce(array_length(cur."product_ids", 1), 0) LOOP
      k := array_position(led."product_ids", cur."product_ids"[i]);
      IF k IS NOT NULL THEN
        cur."categories"[i] := led."categories"[k];
      END IF;
    END LOOP;
    IF (led."day", led."paid_at", led."email_key", led."revenue_cents", led."units", led."subtotal_cents",
        led."discount_cents", led."shipping_cents", led."tax_cents", led."discounted", led."product_ids",
        led."categories", led."product_units", led."product_revenue_cents")
       IS NOT DISTINCT FROM
       (cur."day", cur."paid_at", cur."email_key", cur."revenue_cents", cur."units", cur."subtotal_cents",
        cur."discount_cents", cur."shipping_cents", cur."tax_cents", cur."discounted", cur."product_ids",
        cur."categories", cur."product_units", cur."product_revenue_cents") THEN
      RETURN;
    END IF;
  END IF;

  IF led."order_id" IS NOT NULL THEN
    PERFORM "sales_rollups_apply"(led, -1);
    PERFORM "sales_customer_count"(led."day", led."previous_day", -1);
    DELETE FROM "sales_counted_orders" WHERE "order_id" = p_order;
    -- The customer's next order now follows this one's previous order.
    SELECT * INTO nxt FROM "sales_counted_orders"
      WHERE "email_key" = led."email_key" AND ("paid_at", "order_id") > (led."paid_at", led."order_id")
      ORDER BY "paid_at", "order_id" LIMIT 1;
    IF nxt."order_id" IS NOT NULL THEN
      PERFORM "sales_customer_count"(nxt."day", nxt."previous_day", -1);
      UPDATE "sales_counted_orders" SET "previous_day" = led."previous_day" WHERE "order_id" = nxt."order_id";
      PERFORM "sales_customer_count"(nxt."day", led."previous_day", 1);
    END IF;
  END IF;

  IF cur."order_id" IS NOT NULL THEN
    SELECT "day" INTO cur."previous_day" FROM "sales_counted_orders"
      WHERE "email_key" = cur."email_key" AND ("paid_at", "order_id") < (cur."paid_at", cur."order_id")
      ORDER BY "paid_at" DESC, "order_id" DESC LIMIT 1;
    SELECT * INTO nxt FROM "sales_counted_orders"
      WHERE "email_key" = cur."email_key" AND ("paid_at", "order_id") > (cur."paid_at", cur."order_id")
      ORDER BY "paid_at", "order_id" LIMIT 1;
    INSERT INTO "sales_counted_orders" SELECT (cur).*;
    PERFORM "sales_rollups_apply"(cur, 1);
    PERFORM "sales_customer_count"(cur."day", cur."previous_day", 1);
    IF nxt."order_id" IS NOT NULL THEN
      PERFORM "sales_customer_count"(nxt."day", nxt."previous_day", -1);
      UPDATE "sales_counted_orders" SET "previous_day" = cur."day" WHERE "order_id" = nxt."order_id";
      PERFORM "sales_customer_count"(nxt."day", cur."day", 1);
    END IF;
  END IF;
END
$$;
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
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_orders_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "sales_order_sync"(OLD."id");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."id" <> OLD."id") THEN
    PERFORM "sales_order_sync"(NEW."id");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_order_items_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "sales_order_sync"(OLD."order_id");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."order_id" <> OLD."order_id") THEN
    PERFORM "sales_order_sync"(NEW."order_id");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_rebuild_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "sales_rollups_rebuild"();
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_insert" AFTER INSERT ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."payment_status" = 'paid' AND NEW."status" <> 'cancelled')
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
-- Starting or stopping to count, or a counted order's day, customer or money changing. Moves
-- between statuses that count (processing → shipped) change nothing and queue nothing.
CREATE CONSTRAINT TRIGGER "sales_orders_update"
  AFTER UPDATE OF "id", "payment_status", "status", "paid_at", "created_at", "email", "total_amount_cents", "subtotal_cents",
    "discount_cents", "discount_code", "shipping_cents", "tax_cents" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."payment_status" = 'paid' AND OLD."status" <> 'cancelled') <> (NEW."payment_status" = 'paid' AND NEW."status" <> 'cancelled')
    OR (NEW."payment_status" = 'paid' AND NEW."status" <> 'cancelled' AND (
      OLD."id" <> NEW."id" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at" OR OLD."created_at" <> NEW."created_at"
      OR lower(OLD."email") <> lower(NEW."email") OR OLD."total_amount_cents" <> NEW."total_amount_cents"
      OR OLD."subtotal_cents" <> NEW."subtotal_cents" OR OLD."discount_cents" <> NEW."discount_cents"
      OR OLD."discount_code" IS DISTINCT FROM NEW."discount_code" OR OLD."shipping_cents" <> NEW."shipping_cents"
      OR OLD."tax_cents" <> NEW."tax_cents")))
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_delete" AFTER DELETE ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" = 'paid' AND OLD."status" <> 'cancelled')
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
-- A line added to or taken from an order; whether the order counts is seen at commit. Lines
-- emptied by a product's deletion (product_id set null) queue nothing: the ledger keeps them
-- under the product they were counted as.
CREATE CONSTRAINT TRIGGER "sales_order_items_insert" AFTER INSERT ON "order_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "sales_order_items_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_order_items_update"
  AFTER UPDATE OF "order_id", "product_id", "quantity", "line_total_cents", "discount_cents" ON "order_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."order_id" <> NEW."order_id" OR OLD."quantity" <> NEW."quantity"
    OR OLD."line_total_cents" <> NEW."line_total_cents" OR OLD."discount_cents" <> NEW."discount_cents"
    OR (NEW."product_id" IS NOT NULL AND OLD."product_id" IS DISTINCT FROM NEW."product_id"))
  EXECUTE FUNCTION "sales_order_items_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_order_items_delete" AFTER DELETE ON "order_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "sales_order_items_changed"();
--> statement-breakpoint
CREATE TRIGGER "sales_orders_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_rebuild_after_truncate"();
--> statement-breakpoint
CREATE TRIGGER "sales_order_items_truncate" AFTER TRUNCATE ON "order_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_rebuild_after_truncate"();
--> statement-breakpoint
SELECT "sales_rollups_rebuild"();
