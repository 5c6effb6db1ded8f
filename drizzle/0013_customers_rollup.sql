-- The customers roll-up (docs/rules/analytics.md, Customers): one row per lower-cased email, kept
-- exact by triggers on users, orders and newsletter_subscriptions.
--
-- Each change recomputes the one customer it touches from its sources (its orders through
-- orders_email_idx, its account, its subscription) instead of adding deltas, so a missed or
-- doubled event can never leave a wrong figure behind. The triggers are deferred constraint
-- triggers: they run at COMMIT, when the transaction already holds every other lock it takes,
-- so the customer's row lock is always the last lock taken (a checkout, a payment, a cancel
-- that returns stock never wait on it while holding it). Writers of one customer serialise on
-- that row; the figures are read after the lock is held, each statement with a fresh snapshot
-- (READ COMMITTED), so two orders committing at once are both counted.
--
-- customers_rebuild() recomputes the whole table from the sources (this migration's backfill, a
-- bulk load made with triggers off, a TRUNCATE of a source).
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
    count(*) FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled'),
    coalesce(sum(o."total_amount_cents") FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled'), 0),
    min(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled'),
    max(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled'),
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
      count(*) FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled')::integer AS orders_count,
      coalesce(sum(o."total_amount_cents") FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled'), 0)::bigint AS spent,
      min(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled') AS first_order,
      max(coalesce(o."paid_at", o."created_at")) FILTER (WHERE o."payment_status" = 'paid' AND o."status" <> 'cancelled') AS last_order,
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
CREATE OR REPLACE FUNCTION "customers_users_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "customers_refresh"(lower(OLD."email"), true);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND lower(NEW."email") <> lower(OLD."email")) THEN
    PERFORM "customers_refresh"(lower(NEW."email"), true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "customers_orders_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "customers_refresh"(lower(OLD."email"));
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND lower(NEW."email") <> lower(OLD."email")) THEN
    PERFORM "customers_refresh"(lower(NEW."email"));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "customers_newsletter_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only an address that is a customer has a row to mark; refresh deletes any placeholder.
  IF TG_OP <> 'INSERT' THEN
    PERFORM "customers_refresh"(lower(OLD."email"));
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND lower(NEW."email") <> lower(OLD."email")) THEN
    PERFORM "customers_refresh"(lower(NEW."email"));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "customers_rebuild_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "customers_rebuild"();
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_users_insert" AFTER INSERT ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "customers_users_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_users_update" AFTER UPDATE OF "name", "email" ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."email" IS DISTINCT FROM NEW."email")
  EXECUTE FUNCTION "customers_users_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_users_delete" AFTER DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "customers_users_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_orders_insert" AFTER INSERT ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "customers_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_orders_update"
  AFTER UPDATE OF "payment_status", "status", "total_amount_cents", "paid_at", "email", "first_name", "last_name", "created_at" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" IS DISTINCT FROM NEW."payment_status" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."total_amount_cents" IS DISTINCT FROM NEW."total_amount_cents" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at"
    OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."first_name" IS DISTINCT FROM NEW."first_name"
    OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "customers_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_orders_delete" AFTER DELETE ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "customers_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_newsletter_insert" AFTER INSERT ON "newsletter_subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."confirmed_at" IS NOT NULL)
  EXECUTE FUNCTION "customers_newsletter_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_newsletter_update" AFTER UPDATE OF "email", "confirmed_at" ON "newsletter_subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."email" IS DISTINCT FROM NEW."email" OR (OLD."confirmed_at" IS NULL) <> (NEW."confirmed_at" IS NULL))
  EXECUTE FUNCTION "customers_newsletter_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_newsletter_delete" AFTER DELETE ON "newsletter_subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."confirmed_at" IS NOT NULL)
  EXECUTE FUNCTION "customers_newsletter_changed"();
--> statement-breakpoint
CREATE TRIGGER "customers_users_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "customers_rebuild_after_truncate"();
--> statement-breakpoint
CREATE TRIGGER "customers_orders_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "customers_rebuild_after_truncate"();
--> statement-breakpoint
CREATE TRIGGER "customers_newsletter_truncate" AFTER TRUNCATE ON "newsletter_subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION "customers_rebuild_after_truncate"();
--> statement-breakpoint
SELECT "customers_rebuild"();
