/**
 * Which area writes each table (docs/architecture.md, One writer per table). Other areas ask the
 * owner through its face. Tables kept by triggers or by a library (better-auth's sessions) belong
 * to the area whose rows drive them. The architecture test holds the code to this list.
 */
export const TABLE_OWNERS: Record<string, string> = {
  // platform: the shop's machinery
  jobs: "platform",
  mail_outbox: "platform",
  rate_limits: "platform",
  shop_meta: "platform",
  site_settings: "platform",
  storefront_changes: "platform",
  // catalog: what is sold
  categories: "catalog",
  products: "catalog",
  product_counts: "catalog",
  product_variations: "catalog",
  variation_types: "catalog",
  variation_values: "catalog",
  reviews: "catalog",
  price_history: "catalog",
  // people: who buys and runs the shop
  users: "people",
  accounts: "people",
  sessions: "people",
  verifications: "people",
  two_factors: "people",
  profiles: "people",
  saved_addresses: "people",
  privacy_audit_log: "people",
  // commerce: selling, from cart to paid order
  cart_lines: "commerce",
  orders: "commerce",
  order_items: "commerce",
  order_events: "commerce",
  payment_tasks: "commerce",
  order_money_movements: "commerce",
  order_stock_moves: "commerce",
  test_payment_sessions: "commerce",
  test_payment_refunds: "commerce",
  discount_codes: "commerce",
  discount_uses: "commerce",
  shipping_zones: "commerce",
  shipping_rates: "commerce",
  tax_rates: "commerce",
  tax_settings: "commerce",
  mail_opt_outs: "commerce",
  order_returns: "commerce",
  // content: what the shop says
  blog_posts: "content",
  contact_messages: "content",
  newsletter_subscriptions: "content",
  shop_pages: "content",
  // insight: figures about the rest (roll-ups kept by triggers, visit counts)
  customers: "insight",
  sales_counted_orders: "insight",
  sales_counted_refunds: "insight",
  sales_daily: "insight",
  sales_daily_categories: "insight",
  sales_daily_products: "insight",
  sales_monthly_products: "insight",
  sales_refunds_daily: "insight",
  first_orders_daily: "insight",
  repeat_orders_daily: "insight",
  page_views_daily: "insight",
  visits_daily: "insight",
  visitor_days: "insight",
  visit_salts: "insight",
  search_terms_daily: "insight",
  search_terms_monthly: "insight",
};

/**
 * Code outside the areas that may write any table: the demo seed fills an empty shop in one go
 * (it runs only on a database with no products). Backups restore every table by name, which the
 * analysis does not see as writes to a named table.
 */
export const WRITERS_OUTSIDE_AREAS = ["seed"];
