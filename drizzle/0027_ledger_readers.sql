ALTER TABLE "orders" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "order_money_movements_refunds_idx" ON "order_money_movements" USING btree ("settled_at") WHERE "order_money_movements"."kind" = 'refund' and "order_money_movements"."state" = 'succeeded';--> statement-breakpoint
-- The order ledger is what money figures read (docs/money-path.md, "Who reads the ledger").
-- orders.payment_status and orders.refunded_cents are the ledger's state and what it gave back of
-- the order's total, kept by settlement/ledger.server.ts keepPaymentStatus in the transaction of
-- each ledger write. A partially refunded order still counts as a sale on the day it was paid
-- (its refunds count on the day each succeeded); a customer's spent is what their counted orders
-- kept (total less refunded).
UPDATE "orders" o SET "refunded_cents" = greatest(0, least(o."total_amount_cents", o."total_amount_cents" - (m.paid - m.refunded)))
FROM (
  SELECT "order_id",
    coalesce(sum("amount_cents") FILTER (WHERE "kind" = 'charge' AND "state" = 'succeeded'), 0) AS paid,
    coalesce(sum("amount_cents") FILTER (WHERE "kind" = 'refund' AND "state" = 'succeeded'), 0) AS refunded
  FROM "order_money_movements" GROUP BY 1
  HAVING count(*) FILTER (WHERE "kind" = 'charge' AND "state" = 'succeeded') > 0
    AND count(*) FILTER (WHERE "kind" = 'refund' AND "state" = 'succeeded') > 0
) m
WHERE m."order_id" = o."id";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "customers_refresh"(p_key text, p_search_accounts boolean DEFAULT false)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_user_id text;
  v_user_email text;
  v_user_name text;
  v_user_created timestamptz;
  v_orders_count integer;
  v_spent bigint;
  v_first_order timestamptz;
  v_last_order timestamptz;
  v_first_placed timestamptz;
  v_any_orders integer;
  v_order_email text;
  v_order_name text;
  v_subscribed boolean;
  v_created boolean := false;
BEGIN
  IF p_key IS NULL OR p_key = '' THEN
    RETURN;
  END IF;
  -- Lock the customer's row, making a placeholder when it does not exist yet (deleted again
  -- below when nothing makes this address a customer). An insert racing ours waits here.
  LOOP
    PERFORM 1 FROM "customers" WHERE "email_key" = p_key FOR UPDATE;
    EXIT WHEN FOUND;
    INSERT INTO "customers" ("email_key", "email") VALUES (p_key, p_key) ON CONFLICT ("email_key") DO NOTHING
      RETURNING true INTO v_created;
  END LOOP;
  v_created := coalesce(v_created, false);

  -- The account: the one linked already, else the one with this address (better-auth stores
  -- addresses lower-cased, so the unique index finds it); a search by lower(email), which reads
  -- the whole users table, only when the account side changed (users trigger).
  SELECT u."id", u."email", u."name", u."created_at" INTO v_user_id, v_user_email, v_user_name, v_user_created
    FROM "customers" c JOIN "users" u ON u."id" = c."user_id"
    WHERE c."email_key" = p_key AND lower(u."email") = p_key;
  IF v_user_id IS NULL THEN
    SELECT u."id", u."email", u."name", u."created_at" INTO v_user_id, v_user_email, v_user_name, v_user_created
      FROM "users" u WHERE u."email" = p_key;
  END IF;
  IF v_user_id IS NULL AND p_search_accounts THEN
    SELECT u."id", u."email", u."name", u."created_at" INTO v_user_id, v_user_email, v_user_name, v_user_created
      FROM "users" u WHERE lower(u."email") = p_key ORDER BY u."created_at", u."id" LIMIT 1;
  END IF;

  -- Orders that count: paid and not cancelled (a refunded order is no longer 'paid').
  SELECT
    count(*) FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled'),
    coalesce(sum(o."total_amount_cents" - o."refunded_cents") FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled'), 0),
    min(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled'),
    max(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled'),
    min(o."created_at"),
    count(*)
  INTO v_orders_count, v_spent, v_first_order, v_last_order, v_first_placed, v_any_orders
  FROM "orders" o WHERE lower(o."email") = p_key;

  IF v_user_id IS NULL AND v_any_orders = 0 THEN
    DELETE FROM "customers" WHERE "email_key" = p_key;
    RETURN;
  END IF;

  SELECT o."email", btrim(o."first_name" || ' ' || o."last_name") INTO v_order_email, v_order_name
    FROM "orders" o WHERE lower(o."email") = p_key ORDER BY o."created_at" DESC, o."id" DESC LIMIT 1;

  v_subscribed := EXISTS (
    SELECT 1 FROM "newsletter_subscriptions" n WHERE lower(n."email") = p_key AND n."confirmed_at" IS NOT NULL
  );

  UPDATE "customers" c SET
    "email" = coalesce(v_user_email, v_order_email, p_key),
    "name" = coalesce(nullif(btrim(v_user_name), ''), v_order_name, ''),
    "user_id" = v_user_id,
    "has_account" = v_user_id IS NOT NULL,
    "orders_count" = v_orders_count,
    "spent_cents" = v_spent,
    "first_order_at" = v_first_order,
    "last_order_at" = v_last_order,
    "subscribed" = v_subscribed,
    -- A row made just now starts when the customer did: the account or the first order.
    "created_at" = CASE WHEN v_created THEN coalesce(least(v_user_created, v_first_placed), now()) ELSE c."created_at" END
  WHERE c."email_key" = p_key
    AND (v_created OR (c."email", c."name", c."user_id", c."has_account", c."orders_count", c."spent_cents",
         c."first_order_at", c."last_order_at", c."subscribed")
        IS DISTINCT FROM
        (coalesce(v_user_email, v_order_email, p_key), coalesce(nullif(btrim(v_user_name), ''), v_order_name, ''),
         v_user_id, v_user_id IS NOT NULL, v_orders_count, v_spent, v_first_order, v_last_order, v_subscribed));
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "customers_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Writers wait until the new figures are committed; the ones in flight commit first.
  LOCK TABLE "users", "orders", "newsletter_subscriptions" IN SHARE MODE;
  CREATE TEMP TABLE "customers_rebuilt" ON COMMIT DROP AS
  WITH acct AS (
    SELECT DISTINCT ON (lower(u."email")) lower(u."email") AS key, u."id", u."email", u."name", u."created_at"
      FROM "users" u
      ORDER BY lower(u."email"), (u."email" = lower(u."email")) DESC, u."created_at", u."id"
  ), figures AS (
    SELECT lower(o."email") AS key,
      count(*) FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled')::integer AS orders_count,
      coalesce(sum(o."total_amount_cents" - o."refunded_cents") FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled'), 0)::bigint AS spent,
      min(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled') AS first_order,
      max(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled') AS last_order,
      min(o."created_at") AS first_placed
    FROM "orders" o GROUP BY 1
  ), latest AS (
    SELECT DISTINCT ON (lower(o."email")) lower(o."email") AS key, o."email", btrim(o."first_name" || ' ' || o."last_name") AS name
      FROM "orders" o
      ORDER BY lower(o."email"), o."created_at" DESC, o."id" DESC
  ), subs AS (
    SELECT DISTINCT lower(n."email") AS key FROM "newsletter_subscriptions" n WHERE n."confirmed_at" IS NOT NULL
  ), keys AS (
    SELECT key FROM acct UNION SELECT key FROM figures
  )
  SELECT k.key AS email_key,
    coalesce(a."email", l."email", k.key) AS email,
    coalesce(nullif(btrim(a."name"), ''), l.name, '') AS name,
    a."id" AS user_id,
    a."id" IS NOT NULL AS has_account,
    coalesce(f.orders_count, 0) AS orders_count,
    coalesce(f.spent, 0) AS spent_cents,
    f.first_order AS first_order_at,
    f.last_order AS last_order_at,
    s.key IS NOT NULL AS subscribed,
    coalesce(least(a."created_at", f.first_placed), now()) AS created_at
  FROM keys k
  LEFT JOIN acct a ON a.key = k.key
  LEFT JOIN figures f ON f.key = k.key
  LEFT JOIN latest l ON l.key = k.key
  LEFT JOIN subs s ON s.key = k.key
  WHERE k.key <> '';

  DELETE FROM "customers" c WHERE NOT EXISTS (SELECT 1 FROM "customers_rebuilt" r WHERE r.email_key = c."email_key");
  -- Existing rows keep their id (the admin's links to them stay valid).
  INSERT INTO "customers" AS c ("email_key", "email", "name", "user_id", "has_account", "orders_count", "spent_cents",
                               "first_order_at", "last_order_at", "subscribed", "created_at")
    SELECT email_key, email, name, user_id, has_account, orders_count, spent_cents, first_order_at, last_order_at, subscribed, created_at
      FROM "customers_rebuilt"
  ON CONFLICT ("email_key") DO UPDATE SET
    "email" = excluded."email", "name" = excluded."name", "user_id" = excluded."user_id",
    "has_account" = excluded."has_account", "orders_count" = excluded."orders_count",
    "spent_cents" = excluded."spent_cents", "first_order_at" = excluded."first_order_at",
    "last_order_at" = excluded."last_order_at", "subscribed" = excluded."subscribed"
  WHERE (c."email", c."name", c."user_id", c."has_account", c."orders_count", c."spent_cents",
         c."first_order_at", c."last_order_at", c."subscribed")
        IS DISTINCT FROM
        (excluded."email", excluded."name", excluded."user_id", excluded."has_account", excluded."orders_count",
         excluded."spent_cents", excluded."first_order_at", excluded."last_order_at", excluded."subscribed");
  DROP TABLE "customers_rebuilt";
END
$$;
--> statement-breakpoint
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
    WHERE o."id" = p_order AND o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled';
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
      WHERE o."payment_status" IN ('paid', 'partially_refunded') AND o."status" <> 'cancelled'
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
DROP TRIGGER "sales_orders_insert" ON "orders";
--> statement-breakpoint
DROP TRIGGER "sales_orders_update" ON "orders";
--> statement-breakpoint
DROP TRIGGER "sales_orders_delete" ON "orders";
--> statement-breakpoint
DROP TRIGGER "customers_orders_update" ON "orders";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_insert" AFTER INSERT ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."payment_status" IN ('paid', 'partially_refunded') AND NEW."status" <> 'cancelled')
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_update"
  AFTER UPDATE OF "id", "payment_status", "status", "paid_at", "created_at", "email", "total_amount_cents", "subtotal_cents",
    "discount_cents", "discount_code", "shipping_cents", "tax_cents" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."payment_status" IN ('paid', 'partially_refunded') AND OLD."status" <> 'cancelled') <> (NEW."payment_status" IN ('paid', 'partially_refunded') AND NEW."status" <> 'cancelled')
    OR (NEW."payment_status" IN ('paid', 'partially_refunded') AND NEW."status" <> 'cancelled' AND (
      OLD."id" <> NEW."id" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at" OR OLD."created_at" <> NEW."created_at"
      OR lower(OLD."email") <> lower(NEW."email") OR OLD."total_amount_cents" <> NEW."total_amount_cents"
      OR OLD."subtotal_cents" <> NEW."subtotal_cents" OR OLD."discount_cents" <> NEW."discount_cents"
      OR OLD."discount_code" IS DISTINCT FROM NEW."discount_code" OR OLD."shipping_cents" <> NEW."shipping_cents"
      OR OLD."tax_cents" <> NEW."tax_cents")))
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_delete" AFTER DELETE ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" IN ('paid', 'partially_refunded') AND OLD."status" <> 'cancelled')
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_orders_update"
  AFTER UPDATE OF "payment_status", "status", "total_amount_cents", "refunded_cents", "paid_at", "email", "first_name", "last_name", "created_at" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" IS DISTINCT FROM NEW."payment_status" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."total_amount_cents" IS DISTINCT FROM NEW."total_amount_cents" OR OLD."refunded_cents" IS DISTINCT FROM NEW."refunded_cents" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at"
    OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."first_name" IS DISTINCT FROM NEW."first_name"
    OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "customers_orders_changed"();
