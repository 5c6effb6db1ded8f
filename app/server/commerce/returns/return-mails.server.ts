import { composeMail, type Db, loadTemplates, logger, type MailDraft, type orderReturns, type orders, queueMail } from "../../platform/index.server";
import { orderLink, queueOrderMail } from "../orders/mails.server";

type OrderRow = typeof orders.$inferSelect;
type ReturnRow = typeof orderReturns.$inferSelect;

export type ReturnMailStep = { step: "requested" } | { step: "withdrawal" } | { step: "approved" | "rejected" | "received" | "closed"; message: string };

/** '2026-03-14 09:30:12 UTC': the acknowledgement states the moment the withdrawal was received. */
const utcTime = (d: Date) => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/**
 * Records the mail of a return's step in the caller's transaction: the instructions when it is
 * asked for, the acknowledgement of a withdrawal, and a mail for each of the owner's steps.
 */
export async function queueReturnMail(tx: Db, order: OrderRow, ret: ReturnRow, names: Map<string, string>, step: ReturnMailStep) {
  const forMail = {
    orderNumber: order.orderNumber,
    returnNumber: ret.returnNumber,
    firstName: order.firstName,
    lines: ret.lines.map((l) => ({ name: names.get(l.orderItemId) ?? "Item", quantity: l.quantity })),
  };
  const orderUrl = orderLink(order);
  const draft: MailDraft =
    step.step === "requested"
      ? async (ctx) => (await loadTemplates()).returnRequestedMail(ctx, { ret: forMail, orderUrl })
      : step.step === "withdrawal"
        ? async (ctx) => (await loadTemplates()).withdrawalReceivedMail(ctx, { ret: forMail, withdrawnAt: utcTime(ret.withdrawnAt ?? ret.createdAt), orderUrl })
        : async (ctx) => (await loadTemplates()).returnUpdateMail(ctx, { ret: forMail, step: step.step, message: step.message, orderUrl });
  const kind = step.step === "withdrawal" ? "withdrawal-received" : `return-${step.step}`;
  await queueOrderMail(tx, order, draft, kind);
}

/** The footer form's mail: the order's signed link, to the order's own address (sent outside any transaction). */
export async function queueOrderLinkMail(db: Db, order: OrderRow) {
  try {
    const rendered = await composeMail(db, async (ctx) =>
      (await loadTemplates()).orderLinkMail(ctx, { orderNumber: order.orderNumber, firstName: order.firstName, orderUrl: orderLink(order) }),
    );
    await queueMail(db, { to: order.email, kind: "order-link", ...rendered });
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "order link mail could not be recorded");
  }
}
