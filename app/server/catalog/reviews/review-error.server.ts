import { DomainError } from "../../platform/index.server";

/**
 * A review the shop refuses to store or change: the product is gone, the shopper did not buy it or
 * already reviewed it, the review no longer exists. The message is the person's; the route edge
 * answers it with the kind's status (docs/architecture.md, Refusals).
 */
export class ReviewError extends DomainError<"not_found" | "conflict" | "forbidden"> {}
