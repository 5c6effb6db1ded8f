import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES_NAV, ADMIN_NAV, isNavActive, sidebarOpenFromCookie } from "./admin-sidebar";

describe("admin sidebar", () => {
  it("lists the specified entries in order, then the shop's messages", () => {
    expect(ADMIN_NAV.map((i) => i.title)).toEqual([
      "Dashboard",
      "Products",
      "Orders",
      "Discounts",
      "Blog",
      "Site Settings",
      "Shipping & Tax",
      "Analytics",
      "Customers",
      "Reports",
    ]);
    expect(ADMIN_MESSAGES_NAV.map((i) => i.to)).toEqual(["/admin/outbox", "/admin/inbox", "/admin/newsletter", "/admin/reviews", "/admin/returns", "/admin/pages"]);
  });

  it("highlights the dashboard on /admin only, and other entries on their sub-pages", () => {
    expect(isNavActive("/admin", "/admin")).toBe(true);
    expect(isNavActive("/admin/", "/admin")).toBe(true);
    expect(isNavActive("/admin/products", "/admin")).toBe(false);
    expect(isNavActive("/admin/blog/new", "/admin/blog")).toBe(true);
    expect(isNavActive("/admin/blogger", "/admin/blog")).toBe(false);
  });

  it("reads the saved state from the sidebar_state cookie", () => {
    expect(sidebarOpenFromCookie(null)).toBe(true);
    expect(sidebarOpenFromCookie("a=1; sidebar_state=false")).toBe(false);
    expect(sidebarOpenFromCookie("sidebar_state=true")).toBe(true);
    expect(sidebarOpenFromCookie("not_sidebar_state=false")).toBe(true);
  });
});
