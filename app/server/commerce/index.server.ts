// Commerce's face: the cart, quotes, checkout, payments and settlement, orders and their mails,
// abandoned-checkout reminders. Other areas and routes import commerce only from here.

export { mergeIntoSavedCart, readSavedCart, saveCart } from "./cart/saved-cart.server";
export { reviewCart } from "./checkout/cart-review.server";
export type { CartRequestLine } from "./checkout/cart-review.server";
export { createCheckout } from "./checkout/create-checkout.server";
export type { CheckoutResult } from "./checkout/create-checkout.server";
export { parseCheckoutBody, parseCheckoutRequest } from "./checkout/parse-request.server";
export type { Parsed as ParsedCheckout } from "./checkout/parse-request.server";
export {
  createDiscountCode,
  deleteDiscountCode,
  discountCategoryChoices,
  discountProductsById,
  getDiscountForEdit,
  listDiscountCodes,
  parseDiscountQuery,
  searchDiscountProducts,
  setDiscountCodeActive,
  updateDiscountCode,
} from "./discounts/admin.server";
export { listOrdersOfUser } from "./orders/account-orders.server";
export { ordersCsvChunks } from "./orders/admin-orders-csv.server";
export {
  findOrderId,
  getAdminOrder,
  getAdminOrderStats,
  getCustomerLabel,
  listAdminOrders,
  parseAdminOrderQuery,
} from "./orders/admin-orders.server";
export { countOrdersNeeding } from "./orders/attention.server";
export { buyAgain } from "./orders/buy-again.server";
export { findViewableOrder, getShopperOrder } from "./orders/shopper-order.server";
export type { OrderViewer } from "./orders/shopper-order.server";
export { OrderChangeError, changeOrderStatus, isOrderStatus } from "./orders/status.server";
export type { StatusChangeResult } from "./orders/status.server";
export { activePaymentProviderName } from "./payments/index.server";
export { getTestPaymentPage } from "./payments/test-provider.server";
export { limitCodeLookup } from "./pricing/code-guesses.server";
export { freeShippingClaim } from "./pricing/free-shipping.server";
export {
  ShippingSettingsError,
  createRate,
  createTaxRate,
  createZone,
  deleteRate,
  deleteTaxRate,
  deleteZone,
  loadShippingSettings,
  saveTaxSettings,
  updateRate,
  updateTaxRate,
  updateZone,
} from "./pricing/settings-admin.server";
export { restorableCart } from "./reminders/cart-restore.server";
export { describeOptOutLink, optOut } from "./reminders/opt-out.server";
export { getReminderSetting, saveReminderSetting } from "./reminders/reminder-setting.server";
export { commerceJobs, queueCommerceStartJobs } from "./jobs.server";
export { confirmPayment } from "./settlement/confirm.server";
export { orderMoney, orderMovements } from "./settlement/ledger.server";
export type { MoneyMovement, OrderMoney, PaymentState } from "./settlement/ledger.server";
export { confirmRefundDifference } from "./settlement/refund-difference.server";
export {
  ORDER_CHANGED,
  RefundError,
  closeFailedRefund,
  orderStockMoves,
  refundOrder,
  refundableFor,
  retryFailedRefund,
  settleReturnedStock,
} from "./settlement/refunds.server";
export type { RefundActor, RefundInput, RefundLineInput, RefundOutcome, RefundableOrder, StockMove } from "./settlement/refunds.server";
export type { PaymentOutcome } from "./settlement/confirm.server";
export { leavePaymentPage } from "./settlement/leave.server";
export { payWithTestCard } from "./settlement/test-payments.server";
export { settleFromWebhook } from "./settlement/webhook.server";
export { unitsSoldSince } from "./settlement/units-sold-since.server";
export { ReturnError, listReturns, moveReturn, orderReturnsView, requestReturn, returnableLines, returnToRefund } from "./returns/returns.server";
export type { AdminReturnRow, ReturnMove, ReturnToRefund } from "./returns/returns.server";
export { getReturnsSetting, saveReturnsSetting } from "./returns/returns-setting.server";
export { TooManyLinkRequests, requestOrderLink } from "./returns/order-link-request.server";

// commerce erases the rows it owns when a person's data is erased; the people area's erasure runs these
// steps in its one transaction (platform/privacy/steps.server.ts, docs/rules/personal-data.md).
import { registerPrivacySteps } from "../platform/index.server";
import { commercePrivacySteps } from "./privacy/privacy.server";
registerPrivacySteps("commerce", commercePrivacySteps);
