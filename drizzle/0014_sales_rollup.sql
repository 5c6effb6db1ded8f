-- The sales roll-up triggers need the ledger and roll-up tables that migration 0017 makes, so they
-- live in 0018_sales_rollup_triggers.sql (with sales_rollups_rebuild()). A migration must run something.
SELECT 1;
