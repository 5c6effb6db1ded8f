// Run by tests/e2e/faults-refund-decided.test.ts with tsx, as a process of its own that the test
// kills with SIGKILL: it decides a refund with the shop's own code (an admin's cancel, or a
// partial refund) on DATABASE_URL and then stands still at the provider call. With `hold` the
// provider is never reached (the process dies after the commit, before the call); with `stripe`
// the shop's Stripe provider makes the call and the fake Stripe holds it (dies mid-call).
//
//   tsx tests/e2e/refund-decider.ts <hold|stripe> <json: { kind: "cancel" | "partial", … }>
//
// It prints `at-the-call <options>` when the provider is asked (the decision has committed by
// then), `answered` if the call came back, and never ends by itself.
import type { PaymentProvider } from "~/server/commerce/payments/index.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { shopProviders, type Providers } from "~/server/commerce/settlement/providers.server";
import { refundOrder, type RefundInput } from "~/server/commerce/settlement/refunds.server";
import { createDatabase } from "~/server/platform/db/client.server";

type Decision =
  | { kind: "cancel"; orderId: string; version: number; admin: { id: string; name: string; email: string } }
  | { kind: "partial"; input: RefundInput };

const [mode, json] = process.argv.slice(2);
if ((mode !== "hold" && mode !== "stripe") || !json) throw new Error("usage: refund-decider.ts <hold|stripe> <json>");
const decision = JSON.parse(json) as Decision;
const db = createDatabase(process.env.DATABASE_URL!, 2);
const shop = shopProviders(db);

// The provider call is where the process stops: reported, then (hold) never made.
const providers: Providers = {
  ...shop,
  forOrder: (order) => {
    const real = shop.forOrder(order);
    const refund: PaymentProvider["refund"] = async (session, opts) => {
      process.stdout.write(`at-the-call ${JSON.stringify(opts)}\n`);
      if (mode === "hold") await new Promise(() => {});
      return real.refund(session, opts);
    };
    return Object.assign(Object.create(real) as PaymentProvider, { refund });
  },
};

if (decision.kind === "cancel") {
  await changeOrderStatus(
    db,
    { orderId: decision.orderId, to: "cancelled", expectedVersion: decision.version, actor: decision.admin, refund: true },
    { providers },
  );
} else {
  await refundOrder(db, decision.input, { providers });
}
process.stdout.write("answered\n");
await new Promise(() => {});
