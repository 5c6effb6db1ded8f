/**
 * Every mail template, loaded together on first use through load.server.ts: react-email takes a
 * second or more to load, which a server should not pay before it can answer its first request.
 */
export * from "./abandoned-checkout.server";
export * from "./account.server";
export * from "./contact.server";
export * from "./order.server";
export * from "./refund.server";
export * from "./returns.server";
export * from "./personal-data.server";
