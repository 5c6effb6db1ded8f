import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { describe, it } from "vitest";
import { formatMoney } from "~/lib/money";
import {
  isRefundProblem,
  linePaidCents,
  planRefund,
  shippingPaid,
  type RefundLedger,
  type RefundPlan,
  type RefundRequest,
} from "~/lib/refund-amounts";
import { priceQuote, type PricingRules } from "~/server/commerce/pricing/quote.server";
import { orderMoney } from "~/server/commerce/settlement/ledger.server";
import { netSalesTotals } from "~/server/insight/analytics/sales.server";
import { ORDER_CHANGED, RefundError, refundableFor, refundOrder, type RefundInput } from "~/server/commerce/settlement/refunds.server";
import { takePayment } from "~/server/commerce/settlement/take-payment.server";
import type { Db } from "~/server/platform/db/client.server";
import { orderItems, orderMoneyMovements, orders, products } from "~/server/platform/db/schema";
import { useFakeStripe } from "../fakes/stripe";
import { makeProducts } from "../factories/products";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/**
 * Refunds add up (docs/money-path.md, "Refunds"), for random orders put through random
 * sequences of refunds: never more than was paid per line, for shipping and in total; refunding
 * everything refunds exactly the total; the tax refunded is the sum of the refunded parts' tax
 * shares, each round-half-up(A·k/r) of what is left, to the cent.
 *
 * The orders come from the shop's own pricing (priceQuote): inclusive and exclusive tax, taxed
 * and untaxed shipping, percentage and fixed discounts (on some lines or all), 1–6 lines of 1–5
 * units. The steps are drawn as raw numbers and read against what is left when they run, so some
 * ask for more than is left (one unit, or cents, beyond a cap) and must be refused, changing nothing.
 * The pure module takes 10,000 orders; 30 go through the database (refundOrder, the Stripe fake,
 * stock and the analytics' net sales) below.
 */

// ---- Checks ----
// Plain checks rather than expect() in the hot path: 10,000 orders with several refunds each make
// hundreds of thousands of them. A failure throws, and fast-check shrinks and prints the case.

function same(actual: unknown, expected: unknown, what: string) {
  if (actual === expected) return;
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, expected ${e}`);
}

function holds(condition: boolean, what: string) {
  if (!condition) throw new Error(what);
}

// ---- Orders ----

export type OrderSpec = {
  lines: { unitPriceCents: number; quantity: number; discounted: boolean }[];
  taxBasisPoints: number;
  pricesIncludeTax: boolean;
  shippingTaxable: boolean;
  shippingCents: number;
  discount: null | { kind: "percent"; basisPoints: number } | { kind: "fixed"; amountCents: number };
};

export const orderSpecArb: fc.Arbitrary<OrderSpec> = fc.record({
  lines: fc.array(
    fc.record({
      unitPriceCents: fc.oneof(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 250_000 })),
      quantity: fc.integer({ min: 1, max: 5 }),
      discounted: fc.boolean(),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  taxBasisPoints: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_700 }), fc.constantFrom(500, 725, 1_000, 2_000)),
  pricesIncludeTax: fc.boolean(),
  shippingTaxable: fc.boolean(),
  shippingCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4_999 })),
  discount: fc.oneof(
    fc.constant(null),
    fc.record({ kind: fc.constant("percent" as const), basisPoints: fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom(1_000, 3_333, 10_000)) }),
    fc.record({ kind: fc.constant("fixed" as const), amountCents: fc.integer({ min: 1, max: 60_000 }) }),
  ),
});

export type PricedOrder = {
  pricesIncludeTax: boolean;
  lines: { name: string; lineTotalCents: number; discountCents: number; taxCents: number; quantity: number; unitPriceCents: number; discounted: boolean }[];
  shippingCents: number;
  taxCents: number;
  totalCents: number;
};

/** The order the shop would store for the spec: its figures are the checkout's quote. */
export function priceOrder(spec: OrderSpec): PricedOrder {
  const discounted = new Set(spec.lines.flatMap((l, i) => (l.discounted ? [`p${i}`] : [])));
  const productIds = discounted.size ? discounted : null;
  const rules: PricingRules = {
    currency: "usd",
    shipping: { name: "Standard", amountCents: spec.shippingCents },
    tax: { name: "Tax", rateBasisPoints: spec.taxBasisPoints, pricesIncludeTax: spec.pricesIncludeTax, shippingTaxable: spec.shippingTaxable },
    discount: spec.discount ? { code: "CODE", ...spec.discount, productIds } : null,
  };
  const quote = priceQuote(
    spec.lines.map((l, i) => ({ productId: `p${i}`, name: `Item ${i}`, imageUrl: "", unitPriceCents: l.unitPriceCents, quantity: l.quantity })),
    rules,
  );
  return {
    pricesIncludeTax: spec.pricesIncludeTax,
    lines: quote.lines.map((l, i) => ({ ...l, discounted: spec.lines[i]!.discounted })),
    shippingCents: quote.shipping.amountCents,
    taxCents: quote.tax.amountCents,
    totalCents: quote.totalCents,
  };
}

// ---- Refund steps ----

/** One refund as drawn: raw numbers, read against what is left when it runs (`readStep`). */
export type RawStep = { units: number[]; restock: boolean[]; shipping: number; adjustment: number; overShipping: boolean };

export const rawStepArb: fc.Arbitrary<RawStep> = fc.record({
  units: fc.array(fc.nat(6), { minLength: 6, maxLength: 6 }),
  restock: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  shipping: fc.nat(1_000_000),
  // Mostly none; sometimes a goodwill amount, now and then one beyond what is left.
  adjustment: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3_000 }) }),
  overShipping: fc.boolean(),
});

export const stepsArb = fc.array(rawStepArb, { minLength: 0, maxLength: 6 });

/** What one order line and the shipping were paid, and what of them is refunded so far (the model). */
export type Model = {
  lines: { quantity: number; paidCents: number; taxCents: number; refundedQuantity: number; refundedCents: number; refundedTaxCents: number; name: string }[];
  shipping: { paidCents: number; taxCents: number; refundedCents: number; refundedTaxCents: number };
  paidCents: number;
  refundedCents: number;
  taxRefundedCents: number;
  adjustedCents: number;
};

export function modelOf(order: PricedOrder): Model {
  const paidLines = order.lines.map((l) => ({ lineTotalCents: l.lineTotalCents, discountCents: l.discountCents, taxCents: l.taxCents, quantity: l.quantity }));
  const shipping = shippingPaid({ shippingCents: order.shippingCents, taxCents: order.taxCents, pricesIncludeTax: order.pricesIncludeTax }, paidLines);
  return {
    lines: order.lines.map((l, i) => ({
      name: l.name,
      quantity: l.quantity,
      paidCents: linePaidCents(paidLines[i]!, order.pricesIncludeTax),
      taxCents: l.taxCents,
      refundedQuantity: 0,
      refundedCents: 0,
      refundedTaxCents: 0,
    })),
    shipping: { paidCents: shipping.paidCents, taxCents: shipping.taxCents, refundedCents: 0, refundedTaxCents: 0 },
    paidCents: order.totalCents,
    refundedCents: 0,
    taxRefundedCents: 0,
    adjustedCents: 0,
  };
}

/** The ledger as the pure module reads it, from the model. */
export function ledgerOf(model: Model): RefundLedger {
  return {
    lines: model.lines.map((l, i) => ({ orderItemId: `item-${i}`, ...l })),
    shipping: { ...model.shipping },
    paidCents: model.paidCents,
    refundedCents: model.refundedCents,
  };
}

/** A drawn step as a request against what is left: up to one unit, and some cents, beyond a cap. */
export function readStep(model: Model, step: RawStep): RefundRequest {
  const shippingLeft = model.shipping.paidCents - model.shipping.refundedCents;
  return {
    lines: model.lines.map((l, i) => ({
      orderItemId: `item-${i}`,
      quantity: step.units[i]! % (l.quantity - l.refundedQuantity + 2),
      restock: step.restock[i]!,
    })),
    shippingCents: step.overShipping ? step.shipping % (shippingLeft + 2) : Math.min(shippingLeft, step.shipping % (shippingLeft + 1)),
    adjustmentCents: step.adjustment,
  };
}

/** Everything still refundable: every unit left and all the shipping left, nothing more. */
export function everythingLeft(model: Model): RefundRequest {
  return {
    lines: model.lines.map((l, i) => ({ orderItemId: `item-${i}`, quantity: l.quantity - l.refundedQuantity, restock: false })),
    shippingCents: model.shipping.paidCents - model.shipping.refundedCents,
    adjustmentCents: 0,
  };
}

// ---- The contract's arithmetic, written out on its own ----

/** round-half-up(a·k/r), all of a when k = r: the share of `a` that k of r parts carry. */
export function contractShare(a: number, k: number, r: number): number {
  if (k === 0 || a === 0) return 0;
  if (k === r) return a;
  // The integer n with n − ½ ≤ a·k/r < n + ½.
  const twice = 2n * BigInt(a) * BigInt(k);
  const n = (twice + BigInt(r)) / (2n * BigInt(r));
  return Number(n);
}

/** What the contract says the request refunds, and the caps it breaks (their messages). */
export function judge(model: Model, request: RefundRequest) {
  const broken: string[] = [];
  let linesCents = 0;
  let linesTax = 0;
  const lines = request.lines.map((asked, i) => {
    const l = model.lines[i]!;
    const left = l.quantity - l.refundedQuantity;
    if (asked.quantity > left) {
      broken.push(`You can refund at most ${left} of ${l.name}.`);
      return { amountCents: 0, taxCents: 0 };
    }
    const amountCents = contractShare(l.paidCents - l.refundedCents, asked.quantity, left);
    const taxCents = contractShare(l.taxCents - l.refundedTaxCents, asked.quantity, left);
    linesCents += amountCents;
    linesTax += taxCents;
    return { amountCents, taxCents };
  });
  const shippingLeft = model.shipping.paidCents - model.shipping.refundedCents;
  if (request.shippingCents > shippingLeft) broken.push(`You can refund at most ${formatMoney(shippingLeft)}.`);
  const amountCents = linesCents + request.shippingCents + request.adjustmentCents;
  const totalLeft = model.paidCents - model.refundedCents;
  if (!broken.length && amountCents > totalLeft) broken.push(`You can refund at most ${formatMoney(totalLeft)}.`);
  if (!broken.length && amountCents === 0) broken.push("Choose something to refund.");
  const shippingTaxCents =
    request.shippingCents > shippingLeft ? 0 : contractShare(model.shipping.taxCents - model.shipping.refundedTaxCents, request.shippingCents, shippingLeft);
  return { broken, lines, amountCents, taxCents: linesTax + shippingTaxCents, shippingTaxCents };
}

/** The model after a refund the module planned. */
export function apply(model: Model, request: RefundRequest, plan: RefundPlan): void {
  for (const planned of plan.lines) {
    const l = model.lines[Number(planned.orderItemId.slice("item-".length))]!;
    l.refundedQuantity += planned.quantity;
    l.refundedCents += planned.amountCents;
    l.refundedTaxCents += planned.taxCents;
  }
  model.shipping.refundedCents += plan.shippingCents;
  model.shipping.refundedTaxCents += plan.shippingTaxCents;
  model.refundedCents += plan.amountCents;
  model.taxRefundedCents += plan.taxCents;
  model.adjustedCents += request.adjustmentCents;
}

/** Never more than was paid: per line (units, cents, tax), for shipping (cents, tax), in total. */
export function expectWithinCaps(model: Model, context: string) {
  for (const [i, l] of model.lines.entries()) {
    holds(l.refundedQuantity <= l.quantity, `${context}: line ${i}: ${l.refundedQuantity} of ${l.quantity} units refunded`);
    holds(l.refundedCents <= l.paidCents, `${context}: line ${i}: ${l.refundedCents}¢ refunded of ${l.paidCents}¢ paid`);
    holds(l.refundedTaxCents <= l.taxCents, `${context}: line ${i}: ${l.refundedTaxCents}¢ tax refunded of ${l.taxCents}¢`);
    holds(l.refundedCents >= 0 && l.refundedTaxCents >= 0, `${context}: line ${i}: a negative refund`);
    if (l.refundedQuantity === l.quantity) {
      same(l.refundedCents, l.paidCents, `${context}: line ${i} refunded whole`);
      same(l.refundedTaxCents, l.taxCents, `${context}: line ${i} tax refunded whole`);
    }
  }
  holds(model.shipping.refundedCents <= model.shipping.paidCents, `${context}: shipping ${model.shipping.refundedCents}¢ refunded of ${model.shipping.paidCents}¢`);
  holds(model.shipping.refundedTaxCents <= model.shipping.taxCents, `${context}: shipping tax ${model.shipping.refundedTaxCents}¢ refunded of ${model.shipping.taxCents}¢`);
  holds(model.refundedCents <= model.paidCents, `${context}: ${model.refundedCents}¢ refunded of ${model.paidCents}¢ paid`);
  // The tax refunded is the sum of the refunded parts' tax shares.
  same(model.taxRefundedCents, model.lines.reduce((s, l) => s + l.refundedTaxCents, 0) + model.shipping.refundedTaxCents, `${context}: tax refunded`);
}

/**
 * One refund through the pure module, checked against the contract: made exactly as the contract
 * computes it, or refused (changing nothing) exactly when it breaks a cap, with that cap's message.
 */
export function refundOnce(model: Model, request: RefundRequest, context: string): RefundPlan | null {
  const expected = judge(model, request);
  const result = planRefund(ledgerOf(model), request);
  if (isRefundProblem(result)) {
    holds(expected.broken.length > 0, `${context}: refused as '${result.message}' though nothing is over a cap`);
    holds(expected.broken.includes(result.message), `${context}: refused as '${result.message}', not as a cap it broke (${expected.broken.join(" | ")})`);
    return null;
  }
  same(expected.broken, [], `${context}: made though it breaks a cap`);
  same(result.amountCents, expected.amountCents, `${context}: amount`);
  same(result.taxCents, expected.taxCents, `${context}: tax`);
  same(result.shippingTaxCents, expected.shippingTaxCents, `${context}: shipping tax`);
  same(result.adjustmentCents, request.adjustmentCents, `${context}: adjustment`);
  same(
    result.lines.map((l) => [l.orderItemId, l.quantity, l.amountCents, l.taxCents, l.restock]),
    request.lines.flatMap((asked, i) =>
      asked.quantity ? [[asked.orderItemId, asked.quantity, expected.lines[i]!.amountCents, expected.lines[i]!.taxCents, asked.restock]] : [],
    ),
    `${context}: lines`,
  );
  same(result.amountCents, result.lines.reduce((s, l) => s + l.amountCents, 0) + result.shippingCents + result.adjustmentCents, `${context}: the parts add up`);
  apply(model, request, result);
  expectWithinCaps(model, context);
  return result;
}

/** A whole run: the steps, then everything left; what the order ends with. */
export function runSequence(order: PricedOrder, steps: RawStep[]) {
  const model = modelOf(order);
  // The parts of what was paid add up to the order's total.
  same(model.lines.reduce((s, l) => s + l.paidCents, 0) + model.shipping.paidCents, order.totalCents, "lines and shipping paid, against the total");
  for (const [n, step] of steps.entries()) refundOnce(model, readStep(model, step), `step ${n}`);
  const rest = everythingLeft(model);
  const restCents = judge(model, rest).amountCents;
  if (restCents > 0) {
    const made = refundOnce(model, rest, "everything left");
    // Only goodwill refunded beyond the goods can leave too little for them.
    if (!made) holds(model.adjustedCents > 0, "everything left was refused though no adjustment was made");
  }
  if (model.adjustedCents === 0) {
    same(model.refundedCents, order.totalCents, "refunding everything refunds exactly the total");
    same(model.taxRefundedCents, order.taxCents, "and exactly the order's tax");
    same(model.shipping.refundedCents, model.shipping.paidCents, "and all the shipping");
  }
  return model;
}

describe("refund arithmetic (the pure module)", () => {
  it("for 10,000 random orders and refund sequences: never more than paid per line, for shipping or in total; everything refunds exactly the total; tax refunded is the refunded parts' tax shares", () => {
    fc.assert(
      fc.property(orderSpecArb, stepsArb, (spec, steps) => {
        runSequence(priceOrder(spec), steps);
      }),
      { numRuns: 10_000 },
    );
  }, 180_000);

  it("refunding a line one unit at a time, in any order of lines, adds up to exactly what it was paid and its tax", () => {
    fc.assert(
      fc.property(orderSpecArb, fc.infiniteStream(fc.nat()), (spec, picks) => {
        const order = priceOrder(spec);
        const model = modelOf(order);
        const it = picks[Symbol.iterator]();
        for (;;) {
          const open = model.lines.flatMap((l, i) => (l.refundedQuantity < l.quantity ? [i] : []));
          if (!open.length) break;
          const pick = open[it.next().value! % open.length]!;
          const request = everythingLeft(model);
          request.shippingCents = 0;
          request.lines = request.lines.map((l, i) => ({ ...l, quantity: i === pick ? 1 : 0 }));
          if (judge(model, request).amountCents === 0) {
            // A unit of a line that cost nothing (a 100 % code): nothing to refund, refused.
            holds(isRefundProblem(planRefund(ledgerOf(model), request)), "a unit that refunds nothing is refused");
            model.lines[pick]!.refundedQuantity++;
            continue;
          }
          refundOnce(model, request, `unit of line ${pick}`);
        }
        for (const l of model.lines) {
          same(l.refundedCents, l.paidCents, "a line refunded unit by unit");
          same(l.refundedTaxCents, l.taxCents, "its tax refunded unit by unit");
        }
      }),
      { numRuns: 1_000 },
    );
  }, 180_000);
});

// ---- The same sequences through the database (refundOrder), with the Stripe fake ----

const DB_ORDERS = 30;
// Fewer steps than the pure runs (each is a transaction and a call to the fake), then everything left.
const dbStepsArb = fc.array(rawStepArb, { minLength: 0, maxLength: 4 });
const START_STOCK = 50;
const t = useTestDatabase();
const stripe = useFakeStripe();

/** A paid Stripe order stored with the spec's figures: stock taken and the charge on the ledger, as a payment leaves it. */
async function paidStripeOrder(db: Db, order: PricedOrder) {
  const made = await makeProducts(db, order.lines.length, () => ({ stockQuantity: START_STOCK }));
  const sessionId = `cs_test_prop_${randomBytes(8).toString("hex")}`;
  const subtotal = order.lines.reduce((s, l) => s + l.lineTotalCents, 0);
  const [row] = await db
    .insert(orders)
    .values({
      orderNumber: `P-${randomBytes(5).toString("hex")}`,
      status: "pending",
      paymentStatus: "unpaid",
      subtotalCents: subtotal,
      discountCents: order.lines.reduce((s, l) => s + l.discountCents, 0),
      shippingCents: order.shippingCents,
      taxCents: order.taxCents,
      pricesIncludeTax: order.pricesIncludeTax,
      totalAmountCents: order.totalCents,
      email: `prop-${randomBytes(4).toString("hex")}@example.test`,
      firstName: "Prop",
      lastName: "Erty",
      address: "1 Linen Lane",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      paymentProvider: "stripe",
      paymentSessionId: sessionId,
    })
    .returning();
  const items = await db
    .insert(orderItems)
    .values(
      order.lines.map((l, i) => ({
        orderId: row!.id,
        productId: made[i]!.id,
        name: l.name,
        unitPriceCents: l.unitPriceCents,
        quantity: l.quantity,
        lineTotalCents: l.lineTotalCents,
        discountCents: l.discountCents,
        taxCents: l.taxCents,
      })),
    )
    .returning();
  // The fake holds the paid session, so Stripe refunds at most what it took.
  stripe.sessions.set(sessionId, {
    id: sessionId,
    object: "checkout.session",
    status: "open",
    payment_status: "unpaid",
    mode: "payment",
    amount_total: order.totalCents,
    currency: "usd",
    client_reference_id: row!.id,
    customer_email: row!.email,
    metadata: {},
    success_url: "http://localhost:3000/order-success",
    cancel_url: "http://localhost:3000/cart",
    url: null,
    payment_intent: null,
    line_items: [],
    created: Math.floor(Date.now() / 1000),
  });
  const intent = stripe.complete(sessionId).payment_intent!;
  const remote = { id: sessionId, state: "paid" as const, url: null, orderId: row!.id, amountTotalCents: order.totalCents, currency: "usd", paymentReference: intent };
  same(await db.transaction((tx) => takePayment(tx, row!.id, remote, "stripe")), "paid", "the order is paid");
  // item-<i> of the model is the spec's i-th line, the one of the i-th product.
  const itemIds = made.map((p) => items.find((item) => item.productId === p.id)!.id);
  return { id: row!.id, intent, itemIds, productIds: made.map((p) => p.id) };
}

type Stored = Awaited<ReturnType<typeof paidStripeOrder>>;

/** The contract's request as refundOrder takes it. */
function asInput(stored: Stored, version: number, request: RefundRequest, actor: RefundInput["actor"]): RefundInput {
  return {
    orderId: stored.id,
    expectedVersion: version,
    lines: request.lines.map((l, i) => ({ orderItemId: stored.itemIds[i]!, quantity: l.quantity, restock: l.restock })),
    shippingCents: request.shippingCents,
    adjustmentCents: request.adjustmentCents,
    adjustmentReason: request.adjustmentCents > 0 ? "Goodwill for the wait" : null,
    reason: "Property test",
    actor,
  };
}

/** The plan the contract gives a request the model judged possible (for the model's bookkeeping). */
function contractPlan(model: Model, request: RefundRequest): RefundPlan {
  const judged = judge(model, request);
  return {
    lines: request.lines.flatMap((l, i) => (l.quantity ? [{ orderItemId: `item-${i}`, quantity: l.quantity, restock: l.restock, ...judged.lines[i]! }] : [])),
    shippingCents: request.shippingCents,
    shippingTaxCents: judged.shippingTaxCents,
    adjustmentCents: request.adjustmentCents,
    taxCents: judged.taxCents,
    amountCents: judged.amountCents,
  };
}

describe("refunds through the database (refundOrder, the Stripe fake)", () => {
  it(`for ${DB_ORDERS} random orders and refund sequences, some attempted twice at once: the same amounts, stock = start − sold + restocked, the ledger and Stripe agree`, async () => {
    const admin = await makeAdmin(t.db);
    const actor = { actorUserId: admin.id, actorLabel: admin.name };
    // What the orders of the runs still hold: their charges less their refunds.
    let heldCents = 0;
    const began = new Date();
    await fc.assert(
      fc.asyncProperty(orderSpecArb, dbStepsArb, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), async (spec, steps, twice) => {
        const order = priceOrder(spec);
        const stored = await paidStripeOrder(t.db, order);
        const model = modelOf(order);
        const restocked = order.lines.map(() => 0);

        const refund = async (request: RefundRequest, n: number) => {
          const context = `refund ${n}`;
          const expected = judge(model, request);
          const before = await refundableFor(t.db, stored.id);
          const input = asInput(stored, before!.version, request, actor);
          // Twice at once with the version both saw: one is made, the other finds the order changed.
          const tries = await Promise.allSettled(twice[n % twice.length] ? [refundOrder(t.db, input), refundOrder(t.db, input)] : [refundOrder(t.db, input)]);
          const made = tries.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
          const refused = tries.flatMap((r) => (r.status === "rejected" ? [r.reason as Error] : []));
          if (expected.broken.length) {
            same(made.length, 0, `${context}: made though it breaks a cap (${expected.broken.join(" | ")})`);
            for (const err of refused) {
              holds(err instanceof RefundError, `${context}: refused with ${err.message}`);
              holds(expected.broken.includes(err.message), `${context}: refused as '${err.message}', not as a cap it broke (${expected.broken.join(" | ")})`);
            }
            return;
          }
          same(made.length, 1, `${context}: made once (refusals: ${refused.map((e) => e.message).join(" | ")})`);
          for (const err of refused) same([err instanceof RefundError && err.kind, err.message], ["conflict", ORDER_CHANGED], `${context}: the second try`);
          same(made[0]!.amountCents, expected.amountCents, `${context}: amount`);
          same(made[0]!.state, "succeeded", `${context}: state`);
          apply(model, request, contractPlan(model, request));
          request.lines.forEach((l, i) => (restocked[i]! += l.restock ? l.quantity : 0));
        };

        for (const [n, step] of steps.entries()) await refund(readStep(model, step), n);
        const rest = everythingLeft(model);
        // Everything left, half of it back on the shelf.
        rest.lines.forEach((l, i) => (l.restock = i % 2 === 0));
        if (judge(model, rest).amountCents > 0) await refund(rest, steps.length);
        expectWithinCaps(model, "after the sequence");

        // What refundableFor reads back is the model.
        const after = (await refundableFor(t.db, stored.id))!;
        const readBack = new Map(after.lines.map((l) => [l.orderItemId, [l.refundedQuantity, l.refundedCents, l.paidCents]]));
        same(
          stored.itemIds.map((id) => readBack.get(id)),
          model.lines.map((l) => [l.refundedQuantity, l.refundedCents, l.paidCents]),
          "refundable lines",
        );
        same([after.shipping.refundedCents, after.refundedCents, after.paidCents], [model.shipping.refundedCents, model.refundedCents, order.totalCents], "refundable totals");

        // The ledger's refund rows add up to the model, each succeeded.
        const rows = await t.db.select().from(orderMoneyMovements).where(and(eq(orderMoneyMovements.orderId, stored.id), eq(orderMoneyMovements.kind, "refund")));
        holds(rows.every((r) => r.state === "succeeded"), "every refund succeeded");
        same(rows.reduce((s, r) => s + r.amountCents, 0), model.refundedCents, "ledger refunds");
        same(rows.reduce((s, r) => s + r.taxCents, 0), model.taxRefundedCents, "ledger tax refunded");
        same(rows.reduce((s, r) => s + r.shippingCents, 0), model.shipping.refundedCents, "ledger shipping refunded");
        same(rows.reduce((s, r) => s + r.adjustmentCents, 0), model.adjustedCents, "ledger adjustments");
        same(
          stored.itemIds.map((id) => rows.flatMap((r) => r.lines).filter((l) => l.orderItemId === id).reduce((s, l) => s + l.amountCents, 0)),
          model.lines.map((l) => l.refundedCents),
          "ledger lines",
        );
        same((await orderMoney(t.db, stored.id)).refundedCents, model.refundedCents, "orderMoney refunded");
        if (model.adjustedCents === 0 && order.totalCents > 0) same((await orderMoney(t.db, stored.id)).balanceCents, 0, "all given back");

        // Stripe made one refund per ledger row, of its amount, and nothing else.
        const atStripe = stripe.refunds.filter((r) => r.payment_intent === stored.intent);
        same(atStripe.length, rows.length, "refunds at Stripe, one per ledger row");
        same(new Set(atStripe.map((r) => r.idempotencyKey)).size, rows.length, "each under its own key");
        same(atStripe.reduce((s, r) => s + r.amount, 0), model.refundedCents, "refunded at Stripe");
        same(
          [...atStripe.map((r) => r.amount)].sort((a, b) => a - b),
          rows.map((r) => r.amountCents).sort((a, b) => a - b),
          "Stripe's amounts are the ledger's",
        );

        heldCents += order.totalCents - model.refundedCents;

        // Stock: start − sold + restocked, for every line.
        const stock = await t.db.select({ id: products.id, stock: products.stockQuantity }).from(products).where(inArray(products.id, stored.productIds));
        const stockOf = new Map(stock.map((p) => [p.id, p.stock]));
        same(
          stored.productIds.map((id) => stockOf.get(id)),
          order.lines.map((l, i) => START_STOCK - l.quantity + restocked[i]!),
          "stock = start − sold + restocked",
        );
      }),
      { numRuns: DB_ORDERS },
    );

    // The analytics' net sales are the charges less the refunds (every order paid and refunded since the test began, UTC days).
    const [start, end] = [began, new Date()].map((d) => d.toISOString().slice(0, 10)) as [string, string];
    const net = await netSalesTotals(t.db, { start, end, days: start === end ? 1 : 2 });
    holds(net.refundedCents > 0, "some refunds were counted");
    same(net.netCents, heldCents, "net sales = charges − refunds");
    same(net.grossCents - net.refundedCents, net.netCents, "net = gross − refunds");
  }, 600_000);
});
