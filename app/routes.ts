import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** The whole URL map. The storefront and admin URLs are fixed (docs/rules/storefront.md, URLs). */
export default [
  // Resources: no UI.
  route("healthz", "routes/resources/healthz.ts"),
  route("readyz", "routes/resources/readyz.ts"),
  route("api/auth/*", "routes/resources/auth-api.ts"),
  route("media/*", "routes/resources/media.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("api/products", "routes/resources/products.ts"),
  route("resized/:width/*", "routes/resources/resized-image.ts"),
  route("resources/newsletter", "routes/resources/newsletter.ts"),
  route("api/checkout", "routes/resources/checkout.ts"),
  route("api/checkout/leave", "routes/resources/leave-payment.ts"),
  route("api/verify-payment", "routes/resources/verify-payment.ts"),
  route("api/cart/quote", "routes/resources/cart-quote.ts"),
  // The signed-in shopper's saved cart (GET to read, POST to save or merge).
  route("api/cart", "routes/resources/saved-cart.ts"),
  route("api/webhooks/stripe", "routes/resources/stripe-webhook.ts"),
  // The storefront's add-to-cart beacon, for visit counting (docs/rules/analytics.md, Visits).
  route("api/events", "routes/resources/events.ts"),
  // The built-in test provider's hosted payment page (a page of its own, outside the storefront).
  route("pay/test/:sessionId", "routes/resources/test-payment.tsx"),

  // Storefront.
  layout("routes/store/layout.tsx", [
    index("routes/store/home.tsx"),
    route("shop", "routes/store/shop.tsx"),
    route("product/:id", "routes/store/product.tsx"),
    route("contact", "routes/store/contact.tsx"),
    // The owner-edited pages (docs/rules/visitor-storage.md), linked from the footer.
    route("privacy", "routes/store/shop-page.tsx", { id: "store-privacy" }),
    route("accessibility", "routes/store/shop-page.tsx", { id: "store-accessibility" }),
    // The links in the newsletter's mails (double opt-in, unsubscribe).
    route("newsletter/:step", "routes/store/newsletter-link.tsx"),
    route("auth", "routes/account/auth.tsx"),
    route("auth/confirm", "routes/account/confirm-email.tsx"),
    route("auth/confirmed", "routes/account/email-confirmed.tsx"),
    route("auth/sign-in-link", "routes/account/sign-in-link.tsx"),
    route("auth/forgot-password", "routes/account/forgot-password.tsx"),
    route("auth/reset-password", "routes/account/reset-password.tsx"),
    route("auth/two-factor", "routes/account/two-factor.tsx"),
    route("auth/sign-out", "routes/account/sign-out.tsx"),
    route("profile", "routes/account/profile.tsx"),
    // A person's own data (docs/rules/personal-data.md): the signed-in download, the mailed
    // one-time link's page and its download, and where a deleted account lands.
    route("profile/data.zip", "routes/account/profile-data-download.ts"),
    route("profile/data-request", "routes/account/profile-data-request.tsx"),
    route("profile/data-request/download", "routes/account/profile-data-request-download.ts"),
    route("account-deleted", "routes/account/account-deleted.tsx"),
    // The footer's page for guests asking about their data (docs/rules/personal-data.md).
    route("your-data", "routes/store/your-data.tsx"),
    // A shopper's order: its owner, or a guest with the signed link from the confirmation mail.
    route("profile/orders/:orderNumber", "routes/account/order.tsx"),
    // Returning items, and the EU withdrawal's confirmation page (docs/rules/returns.md).
    route("profile/orders/:orderNumber/return", "routes/account/order-return.tsx"),
    route("profile/orders/:orderNumber/withdraw", "routes/account/order-withdraw.tsx"),
    // The footer's 'Withdraw from contract': a guest asks for the order's link by number and email.
    route("withdraw", "routes/store/withdraw.tsx"),
    route("cart", "routes/store/cart.tsx"),
    // The abandoned-checkout reminder's links: back to a cart holding the checkout, and unsubscribe.
    route("cart/restore", "routes/store/cart-restore.tsx"),
    route("unsubscribe", "routes/store/unsubscribe.tsx"),
    route("checkout", "routes/store/checkout.tsx"),
    route("order-success", "routes/store/order-success.tsx"),
    route("blog", "routes/blog/index.tsx"),
    route("blog/rss.xml", "routes/blog/rss.ts"),
    route("blog/:slug", "routes/blog/post.tsx"),
    route("*", "routes/store/not-found.tsx"),
  ]),

  // Admin (every route below sits behind requireAdmin in the layout and in each loader/action).
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("outbox", "routes/admin/outbox/index.tsx"),
      route("outbox/:id", "routes/admin/outbox/message.tsx"),
      route("jobs", "routes/admin/jobs.tsx"),
      route("products", "routes/admin/products/index.tsx"),
      route("products/categories", "routes/admin/products/categories.ts"),
      route("products/variations", "routes/admin/products/variations.ts"),
      route("products/:productId/editor", "routes/admin/products/editor.ts"),
      route("products/export", "routes/admin/products/export.ts"),
      route("products/import", "routes/admin/products/import.ts"),
      route("products/import/:jobId", "routes/admin/products/import-job.ts"),
      route("products/jobs/:jobId", "routes/admin/products/job.ts"),
      route("products/jobs/:jobId/events", "routes/admin/products/job-events.ts"),
      route("products/migrate-images", "routes/admin/products/migrate-images.ts"),
      route("orders", "routes/admin/orders/index.tsx"),
      route("orders/export", "routes/admin/orders/export.ts"),
      route("orders/:id", "routes/admin/orders/order.tsx"),
      route("returns", "routes/admin/returns.tsx"),
      route("discounts", "routes/admin/discounts/index.tsx"),
      route("discounts/new", "routes/admin/discounts/editor.tsx", { id: "admin-discounts-new" }),
      route("discounts/products", "routes/admin/discounts/product-search.ts"),
      route("discounts/:id", "routes/admin/discounts/editor.tsx", { id: "admin-discounts-edit" }),
      route("analytics", "routes/admin/analytics.tsx"),
      route("customers", "routes/admin/customers.tsx"),
      route("customers/export", "routes/admin/customers/export.ts"),
      route("customers/:id", "routes/admin/customers/customer.tsx"),
      route("customers/:id/data.zip", "routes/admin/customers/customer-data.ts"),
      route("privacy", "routes/admin/privacy.tsx"),
      route("reports", "routes/admin/reports.tsx"),
      route("reports/export", "routes/admin/reports-export.ts"),
      route("site-settings", "routes/admin/site-settings.tsx"),
      route("site-settings/emails", "routes/admin/site-settings-emails.ts"),
      route("site-settings/reminder", "routes/admin/site-settings-reminder.ts"),
      route("site-settings/returns", "routes/admin/site-settings-returns.ts"),
      route("site-settings/prices", "routes/admin/site-settings-prices.ts"),
      route("site-settings/privacy", "routes/admin/site-settings-privacy.ts"),
      route("pages", "routes/admin/pages.tsx"),
      route("settings/shipping", "routes/admin/settings/shipping.tsx"),
      route("inbox", "routes/admin/inbox/index.tsx"),
      route("inbox/:messageId", "routes/admin/inbox/message.tsx"),
      route("reviews", "routes/admin/reviews.tsx"),
      route("newsletter", "routes/admin/newsletter.tsx"),
      route("newsletter/export", "routes/admin/newsletter-export.ts"),
      route("blog", "routes/admin/blog/index.tsx"),
      route("blog/new", "routes/admin/blog/editor.tsx", { id: "admin-blog-new" }),
      route("blog/:id/edit", "routes/admin/blog/editor.tsx", { id: "admin-blog-edit" }),
      route("blog/upload", "routes/admin/blog/upload.ts"),
    ]),
  ]),
] satisfies RouteConfig;
