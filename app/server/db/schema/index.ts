export * from "./auth";
export * from "./catalog";
export * from "./orders";
export * from "./content";
export * from "./payments";
export * from "./storefront-cache";
export * from "./pricing";
export * from "./analytics";
