import { describe, expect, it } from "vitest";
import { loader as analyticsLoader } from "~/routes/admin/analytics";
import { loader as customersLoader } from "~/routes/admin/customers";
import { loader as dashboardLoader } from "~/routes/admin/dashboard";
import { loader as layoutLoader } from "~/routes/admin/layout";
import { loader as productsLoader } from "~/routes/admin/products/index";
import { loader as reportsLoader } from "~/routes/admin/reports";
import { makeOrder } from "../factories/account-orders";
import { makeProducts } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args, get, settle } from "./admin-catalog-helpers";

const t = useTestDatabase();

describe("admin dashboard", () => {
  it("counts products and active products, and only paid orders and their revenue", async () => {
    const admin = await makeAdmin(t.db);
    await makeProducts(t.db, 5, (i) => ({ active: i < 3 }));
    await makeOrder(t.db, { paymentStatus: "paid", totalAmountCents: 12_550, paidAt: new Date() });
    await makeOrder(t.db, { paymentStatus: "paid", totalAmountCents: 4_000, paidAt: new Date() });
    await makeOrder(t.db, { paymentStatus: "unpaid", totalAmountCents: 99_999 });
    await makeOrder(t.db, { paymentStatus: "failed", totalAmountCents: 88_888 });
    const res = await get(t.db, dashboardLoader, admin, "/admin");
    expect(await res.body.stats).toMatchObject({ totalProducts: 5, activeProducts: 3, totalOrders: 2, revenueCents: 16_550 });
    const activity = await res.body.activity;
    // Every event, newest first: 5 products added and the 2 payments (the unpaid and failed orders are no event).
    expect(activity.length).toBe(7);
    expect(activity.some((a: { title: string }) => /^Order ORD-TEST-.* paid$/.test(a.title))).toBe(true);
  });

  it("keeps every admin page behind the admin guard", async () => {
    const customer = await makeCustomer(t.db);
    for (const [loader, path] of [
      [dashboardLoader, "/admin"],
      [layoutLoader, "/admin"],
      [analyticsLoader, "/admin/analytics"],
      [customersLoader, "/admin/customers"],
      [reportsLoader, "/admin/reports"],
    ] as const) {
      const anon = await get(t.db, loader, null, path);
      expect(anon.status).toBe(302);
      expect(anon.location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
      expect((await get(t.db, loader, customer, path)).status).toBe(403);
    }
  });
});

describe("admin sidebar state", () => {
  it("renders the sidebar as the cookie left it, open when there is none", async () => {
    const admin = await makeAdmin(t.db);
    const open = await get(t.db, layoutLoader, admin, "/admin");
    expect(open.body).toMatchObject({ sidebarOpen: true, admin: { email: admin.email } });
    const request = await requestAs(t.db, admin, "/admin", { headers: { cookie: "theme=x; sidebar_state=false" } });
    const closed = await settle(() => layoutLoader(args(request)));
    expect(closed.body.sidebarOpen).toBe(false);
  });
});

describe("a list that cannot be read", () => {
  it("answers with the specified 'Failed to fetch …' message instead of an error page", async () => {
    const admin = await makeAdmin(t.db);
    const cases = [
      ["products", "/admin/products", "products", "Failed to fetch products"],
      ["categories", "/admin/products?tab=categories", "categories", "Failed to fetch categories"],
      ["variation_types", "/admin/products?tab=variations", "variationTypes", "Failed to fetch variation types"],
      ["variation_values", "/admin/products?tab=variations", "variationTypes", "Failed to fetch variation values"],
    ] as const;
    for (const [table, path, key, message] of cases) {
      await t.db.$client.query(`alter table ${table} rename to ${table}_away`);
      try {
        const res = await get(t.db, productsLoader, admin, path);
        expect(res.status).toBe(200);
        expect(res.body[key]).toEqual({ failed: message });
        if (table === "products") expect(await (await get(t.db, dashboardLoader, admin, "/admin")).body.stats).toBeNull();
      } finally {
        await t.db.$client.query(`alter table ${table}_away rename to ${table}`);
      }
    }
  });
});
