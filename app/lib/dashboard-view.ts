/**
 * What the browser sees on the admin dashboard: the four figures and the recent activity list.
 * Plain types, safe to import anywhere; app/server/admin/dashboard.server.ts builds these values
 * and is annotated with them.
 */

export type DashboardStats = {
  totalProducts: number;
  activeProducts: number;
  /** Paid orders that were not cancelled; revenue is their total. */
  totalOrders: number;
  revenueCents: number;
};

/** A product added or an order paid; `at` is ISO 8601. */
export type DashboardActivity = { kind: "product" | "order"; title: string; detail: string; at: string };
