/**
 * What the browser sees of customers in the admin: the list, its query and one customer's page.
 * Plain types and URL helpers, safe to import anywhere; app/server/people/customers builds these values.
 * Times are ISO 8601 strings, money integer cents.
 */

/** The list's sortable columns, in the order of the table. */
export const CUSTOMER_SORTS = ["name", "email", "account", "orders", "spent", "last_order", "newsletter"] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export type SortDirection = "asc" | "desc";

/** The column headers, and the direction a first click sorts in (figures and dates: biggest, newest first). */
export const CUSTOMER_COLUMNS: { sort: CustomerSort; label: string; firstDir: SortDirection; numeric?: boolean }[] = [
  { sort: "name", label: "Name", firstDir: "asc" },
  { sort: "email", label: "Email", firstDir: "asc" },
  { sort: "account", label: "Account", firstDir: "desc" },
  { sort: "orders", label: "Orders", firstDir: "desc", numeric: true },
  { sort: "spent", label: "Total spent", firstDir: "desc", numeric: true },
  { sort: "last_order", label: "Last order (UTC)", firstDir: "desc" },
  { sort: "newsletter", label: "Newsletter", firstDir: "desc" },
];

export const CUSTOMERS_PAGE_SIZE = 25;
/**
 * The deepest page the list opens. An OFFSET reads every row it skips, so the cap keeps the last
 * page as fast as the first however many customers there are; a search, or the other direction
 * of the sort, reaches the rest. The CSV export has no cap (it walks the rows by keyset).
 */
export const CUSTOMERS_MAX_PAGES = 400;

export const DEFAULT_CUSTOMER_SORT: CustomerSort = "last_order";
export const DEFAULT_CUSTOMER_DIR: SortDirection = "desc";

export type CustomerListQuery = {
  /** Name or email, typo-tolerant; empty for everyone. */
  q: string;
  sort: CustomerSort;
  dir: SortDirection;
  page: number;
};

/** The list's query string (defaults left out), for links that keep the search and the sort. */
export function customerListSearch(q: Omit<CustomerListQuery, "page"> & { page?: number }): string {
  const p = new URLSearchParams();
  if (q.q) p.set("q", q.q);
  if (q.sort !== DEFAULT_CUSTOMER_SORT || q.dir !== DEFAULT_CUSTOMER_DIR) {
    p.set("sort", q.sort);
    p.set("dir", q.dir);
  }
  if (q.page && q.page > 1) p.set("page", String(q.page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** A row of the customers table. */
export type CustomerRow = {
  /** The customer's page: /admin/customers/:id. */
  id: string;
  name: string;
  email: string;
  hasAccount: boolean;
  ordersCount: number;
  spentCents: number;
  lastOrderAt: string | null;
  subscribed: boolean;
};

export type CustomerList = {
  rows: CustomerRow[];
  /** Customers matching the search (all of them without one). */
  total: number;
  /** A search found more than `total` (it stops counting where the pages end). */
  totalCapped: boolean;
  /** Pages that can be opened: at most MAX pages deep (refine the search or reverse the sort beyond). */
  pages: number;
  /** More customers match than the pages reach. */
  capped: boolean;
  /** The search also lists customers a letter or two off (after the exact matches). */
  closeMatches: boolean;
};

export type NewsletterState = "subscribed" | "pending" | "none";

/** Everything the customer page shows. */
export type CustomerView = {
  id: string;
  name: string;
  email: string;
  /** The first account or order. */
  since: string;
  ordersCount: number;
  spentCents: number;
  firstOrderAt: string | null;
  lastOrderAt: string | null;
  newsletter: NewsletterState;
  account: {
    id: string;
    name: string;
    email: string;
    verified: boolean;
    createdAt: string;
    role: string;
    phone: string;
  } | null;
  /** Each distinct shipping address of its orders, most recently used first. */
  addresses: {
    address: string;
    city: string;
    state: string;
    zipCode: string;
    country: string;
    orders: number;
    lastUsedAt: string;
  }[];
  /** Its orders, newest first (every status, counted or not). */
  orders: {
    id: string;
    orderNumber: string;
    createdAt: string;
    status: string;
    paymentStatus: string;
    totalAmountCents: number;
  }[];
  /** More orders exist than the page lists. */
  moreOrders: boolean;
  messages: { id: string; subject: string; createdAt: string; handled: boolean }[];
  moreMessages: boolean;
};

/** The account actions an admin may take on a customer's page. */
export const CUSTOMER_ACTIONS = ["resend-confirmation", "password-reset"] as const;
export type CustomerAction = (typeof CUSTOMER_ACTIONS)[number];
