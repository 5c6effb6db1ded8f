CREATE TABLE "sales_counted_refunds" (
	"order_id" uuid NOT NULL,
	"day" date NOT NULL,
	"refunds" integer NOT NULL,
	"refunded_cents" bigint NOT NULL,
	CONSTRAINT "sales_counted_refunds_order_id_day_pk" PRIMARY KEY("order_id","day")
);
--> statement-breakpoint
CREATE TABLE "sales_refunds_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Each refund counts on its own day, as Shopify's reports count them (docs/rules/analytics.md,
-- What counts as a sale; docs/money-path.md, "Who reads the ledger"):
--  * gross: every order that was paid counts on the UTC day it was paid, and stays there when it
--    is refunded or cancelled later (before, a refunded or cancelled order was taken back from
--    that day, so a refund in June rewrote March);
--  * refunds: each succeeded refund of the order ledger counts on the UTC day it succeeded
--    (settled_at); a pending or failed one counts nowhere. Cancelling a paid order is a refund of
--    whatever was left of its total, on the day it was cancelled (whether or not the money went
--    back, and the cancel's own refund row is that same refund, not a second one). What an order
--    gives back is capped at its total: a refund of money paid beyond it (a paid-amount
--    difference) gives back what was never a sale;
--  * net = gross − refunds, per day.
-- sales_counted_refunds holds what each order subtracted per day, so any change of the order
-- takes back exactly that and adds what it subtracts now; sales_refunds_daily sums it per day.
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
    WHERE o."id" = p_order AND o."payment_status" IN ('paid', 'partially_refunded', 'refunded');
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
-- What one paid order gives back, per UTC day: its succeeded refunds (not those of money paid
-- beyond its total) on the day each succeeded, and, when it is cancelled, the rest of its total on
-- the day it was cancelled (its last move to cancelled; an order cancelled before it was paid, by
-- a payment that arrived later, on the day it was paid). Refunds settled after the cancellation
-- are part of it. Each refund counts at most what is left of the total when it succeeds.
CREATE OR REPLACE FUNCTION "sales_order_refunds"(p_order uuid)
RETURNS TABLE ("day" date, "refunds" integer, "refunded_cents" bigint) LANGUAGE sql STABLE AS $$
  WITH o AS (
    SELECT o."id", o."total_amount_cents" AS total,
        CASE WHEN o."status" = 'cancelled' THEN greatest(coalesce(o."paid_at", o."created_at"), coalesce(
          (SELECT max(e."created_at") FROM "order_events" e WHERE e."order_id" = o."id" AND e."to_status" = 'cancelled'),
          o."updated_at")) END AS cancelled_at
      FROM "orders" o
      WHERE o."id" = p_order AND o."payment_status" IN ('paid', 'partially_refunded', 'refunded')
  ), moves AS (
    SELECT m."settled_at" AS at, m."amount_cents" AS amount, 0 AS cancel, m."id"
      FROM "order_money_movements" m
      JOIN o ON o."id" = m."order_id"
      LEFT JOIN "payment_tasks" t ON t."id" = m."payment_task_id"
      WHERE m."kind" = 'refund' AND m."state" = 'succeeded' AND m."settled_at" IS NOT NULL
        AND t."kind" IS DISTINCT FROM 'refund_difference'
        AND (o.cancelled_at IS NULL OR m."settled_at" <= o.cancelled_at)
    UNION ALL
    SELECT o.cancelled_at, o.total, 1, NULL FROM o WHERE o.cancelled_at IS NOT NULL
  ), counted AS (
    -- Capped running sums: a refund counts what it adds below the total.
    SELECT mv.at,
        least(o.total, sum(mv.amount) OVER w) - least(o.total, sum(mv.amount) OVER w - mv.amount) AS cents
      FROM moves mv CROSS JOIN o
      WINDOW w AS (ORDER BY mv.at, mv.cancel, mv."id" ROWS UNBOUNDED PRECEDING)
  )
  SELECT (at AT TIME ZONE 'UTC')::date, count(*)::integer, sum(cents)::bigint
    FROM counted WHERE cents > 0 GROUP BY 1 ORDER BY 1
$$;
--> statement-breakpoint
-- Brings one order's share of sales_refunds_daily up to date: equal means nothing to do;
-- otherwise take back what it had added and add what it adds now, days in order.
CREATE OR REPLACE FUNCTION "sales_refunds_sync"(p_order uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_days date[];
  v_refunds integer[];
  v_cents bigint[];
  v_touched date[];
BEGIN
  -- One order's refunds one at a time (class 7242020; 7242019 is the customers' lock of the sales sync).
  PERFORM pg_advisory_xact_lock(7242020, hashtext(p_order::text));
  SELECT coalesce(array_agg(r."day" ORDER BY r."day"), '{}'), coalesce(array_agg(r."refunds" ORDER BY r."day"), '{}'),
      coalesce(array_agg(r."refunded_cents" ORDER BY r."day"), '{}')
    INTO v_days, v_refunds, v_cents
    FROM "sales_order_refunds"(p_order) r;
  IF (SELECT (coalesce(array_agg(c."day" ORDER BY c."day"), '{}'), coalesce(array_agg(c."refunds" ORDER BY c."day"), '{}'),
          coalesce(array_agg(c."refunded_cents" ORDER BY c."day"), '{}'))
        FROM "sales_counted_refunds" c WHERE c."order_id" = p_order)
     IS NOT DISTINCT FROM (v_days, v_refunds, v_cents) THEN
    RETURN;
  END IF;

  WITH old AS (
    DELETE FROM "sales_counted_refunds" WHERE "order_id" = p_order RETURNING "day", "refunds", "refunded_cents"
  ), delta AS (
    SELECT d."day", sum(d.n)::integer AS n, sum(d.c)::bigint AS c FROM (
      SELECT old."day", -old."refunds" AS n, -old."refunded_cents" AS c FROM old
      UNION ALL
      SELECT u.day, u.n, u.c FROM unnest(v_days, v_refunds, v_cents) AS u(day, n, c)
    ) d GROUP BY d."day"
  ), applied AS (
    INSERT INTO "sales_refunds_daily" AS s ("day", "refunds", "refunded_cents")
      SELECT "day", n, c FROM delta WHERE n <> 0 OR c <> 0 ORDER BY "day"
    ON CONFLICT ("day") DO UPDATE SET
      "refunds" = s."refunds" + excluded."refunds",
      "refunded_cents" = s."refunded_cents" + excluded."refunded_cents"
    RETURNING s."day"
  )
  SELECT coalesce(array_agg("day"), '{}') INTO v_touched FROM applied;
  -- Rows that fall to zero go, so the roll-up holds the rows a rebuild makes.
  DELETE FROM "sales_refunds_daily" WHERE "day" = ANY (v_touched) AND "refunds" = 0 AND "refunded_cents" = 0;
  INSERT INTO "sales_counted_refunds" ("order_id", "day", "refunds", "refunded_cents")
    SELECT p_order, u.day, u.n, u.c FROM unnest(v_days, v_refunds, v_cents) AS u(day, n, c);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_refunds_orders_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "sales_refunds_sync"(OLD."id");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."id" <> OLD."id") THEN
    PERFORM "sales_refunds_sync"(NEW."id");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_refunds_movements_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "sales_refunds_sync"(OLD."order_id");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."order_id" <> OLD."order_id") THEN
    PERFORM "sales_refunds_sync"(NEW."order_id");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_rollups_rebuild"()
RETURNS void LANGUAGE plpgsql SET "work_mem" = '256MB' AS $$
BEGIN
  -- Writers wait until the new figures are committed; the ones in flight commit first.
  LOCK TABLE "orders", "order_items", "order_money_movements" IN SHARE MODE;
  TRUNCATE "sales_counted_orders", "sales_daily", "sales_daily_products", "sales_monthly_products",
    "sales_daily_categories", "first_orders_daily", "repeat_orders_daily", "sales_counted_refunds", "sales_refunds_daily";

  INSERT INTO "sales_counted_orders" ("order_id", "day", "paid_at", "email_key", "previous_day", "revenue_cents", "units",
      "subtotal_cents", "discount_cents", "shipping_cents", "tax_cents", "discounted", "product_ids", "categories",
      "product_units", "product_revenue_cents")
  WITH counted AS (
    SELECT o."id", coalesce(o."paid_at", o."created_at") AS paid_at, lower(o."email") AS email_key,
        o."total_amount_cents", o."subtotal_cents", o."discount_cents", o."shipping_cents", o."tax_cents",
        coalesce(o."discount_code", '') <> '' AS discounted
      FROM "orders" o
      WHERE o."payment_status" IN ('paid', 'partially_refunded', 'refunded')
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

  -- Refunds: only orders that refunded or were cancelled can give anything back.
  INSERT INTO "sales_counted_refunds" ("order_id", "day", "refunds", "refunded_cents")
    SELECT o."id", r."day", r."refunds", r."refunded_cents"
      FROM "orders" o CROSS JOIN LATERAL "sales_order_refunds"(o."id") r
      WHERE o."payment_status" IN ('paid', 'partially_refunded', 'refunded')
        AND (o."payment_status" <> 'paid' OR o."status" = 'cancelled'
          OR EXISTS (SELECT 1 FROM "order_money_movements" m WHERE m."order_id" = o."id" AND m."kind" = 'refund' AND m."state" = 'succeeded'));
  INSERT INTO "sales_refunds_daily" ("day", "refunds", "refunded_cents")
    SELECT "day", sum("refunds"), sum("refunded_cents") FROM "sales_counted_refunds" GROUP BY "day";

  -- The owner's other roll-up of roll-ups, rebuilt with these after a bulk load.
  PERFORM "search_terms_monthly_rebuild"();
END
$$;
--> statement-breakpoint
DROP TRIGGER "sales_orders_insert" ON "orders";
--> statement-breakpoint
DROP TRIGGER "sales_orders_update" ON "orders";
--> statement-breakpoint
DROP TRIGGER "sales_orders_delete" ON "orders";
--> statement-breakpoint
-- Gross: an order counts from its payment on, whatever happens to it after (a refund or a cancel
-- is counted on its own day, below). Moves between paid, partially refunded and refunded, and
-- any status change, leave its gross as it was and queue nothing.
CREATE CONSTRAINT TRIGGER "sales_orders_insert" AFTER INSERT ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."payment_status" IN ('paid', 'partially_refunded', 'refunded'))
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_update"
  AFTER UPDATE OF "id", "payment_status", "paid_at", "created_at", "email", "total_amount_cents", "subtotal_cents",
    "discount_cents", "discount_code", "shipping_cents", "tax_cents" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."payment_status" IN ('paid', 'partially_refunded', 'refunded')) <> (NEW."payment_status" IN ('paid', 'partially_refunded', 'refunded'))
    OR (NEW."payment_status" IN ('paid', 'partially_refunded', 'refunded') AND (
      OLD."id" <> NEW."id" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at" OR OLD."created_at" <> NEW."created_at"
      OR lower(OLD."email") <> lower(NEW."email") OR OLD."total_amount_cents" <> NEW."total_amount_cents"
      OR OLD."subtotal_cents" <> NEW."subtotal_cents" OR OLD."discount_cents" <> NEW."discount_cents"
      OR OLD."discount_code" IS DISTINCT FROM NEW."discount_code" OR OLD."shipping_cents" <> NEW."shipping_cents"
      OR OLD."tax_cents" <> NEW."tax_cents")))
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_delete" AFTER DELETE ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" IN ('paid', 'partially_refunded', 'refunded'))
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
-- Refunds: a paid order's payment state, status (a cancel), total, refunded amount or payment
-- day changing; a refund row succeeding, or a succeeded one changing; at COMMIT, as the others.
CREATE CONSTRAINT TRIGGER "sales_refunds_orders_insert" AFTER INSERT ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."payment_status" IN ('paid', 'partially_refunded', 'refunded') AND NEW."status" = 'cancelled')
  EXECUTE FUNCTION "sales_refunds_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_refunds_orders_update"
  AFTER UPDATE OF "id", "payment_status", "status", "paid_at", "created_at", "total_amount_cents", "refunded_cents" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."payment_status" IN ('paid', 'partially_refunded', 'refunded') OR NEW."payment_status" IN ('paid', 'partially_refunded', 'refunded'))
    AND (OLD."id" <> NEW."id" OR OLD."payment_status" <> NEW."payment_status" OR OLD."status" <> NEW."status"
      OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at" OR OLD."created_at" <> NEW."created_at"
      OR OLD."total_amount_cents" <> NEW."total_amount_cents" OR OLD."refunded_cents" <> NEW."refunded_cents"))
  EXECUTE FUNCTION "sales_refunds_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_refunds_orders_delete" AFTER DELETE ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" IN ('paid', 'partially_refunded', 'refunded'))
  EXECUTE FUNCTION "sales_refunds_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_refunds_movements_insert" AFTER INSERT ON "order_money_movements"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."kind" = 'refund' AND NEW."state" = 'succeeded')
  EXECUTE FUNCTION "sales_refunds_movements_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_refunds_movements_update"
  AFTER UPDATE OF "order_id", "kind", "state", "amount_cents", "settled_at", "payment_task_id" ON "order_money_movements"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."kind" = 'refund' AND OLD."state" = 'succeeded') OR (NEW."kind" = 'refund' AND NEW."state" = 'succeeded'))
  EXECUTE FUNCTION "sales_refunds_movements_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_refunds_movements_delete" AFTER DELETE ON "order_money_movements"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."kind" = 'refund' AND OLD."state" = 'succeeded')
  EXECUTE FUNCTION "sales_refunds_movements_changed"();
--> statement-breakpoint
CREATE TRIGGER "sales_order_money_movements_truncate" AFTER TRUNCATE ON "order_money_movements"
  FOR EACH STATEMENT EXECUTE FUNCTION "sales_rebuild_after_truncate"();
--> statement-breakpoint
-- The existing figures by the new rule: gross back on the day each refunded or cancelled order
-- was paid, and every refund on its own day.
SELECT "sales_rollups_rebuild"();
