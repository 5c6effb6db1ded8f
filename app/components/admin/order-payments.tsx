import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { UtcTime } from "~/components/admin/utc-time";
import { formatMoney } from "~/lib/money";

export type PaymentRow = { id: string; createdAt: string; kind: "charge" | "refund"; amountCents: number; state: "pending" | "succeeded" | "failed" | "closed"; providerReference: string | null };

const KIND = { charge: "Charge", refund: "Refund" } as const;
// Closed: a failed refund the owner gave up; it no longer counts as refunded.
const STATE = { pending: "Pending", succeeded: "Succeeded", failed: "Failed", closed: "Failed, closed" } as const;

/** The order's ledger: each charge and refund with its state, and what the shop still holds; `children` acts on it (Refund). */
export function OrderPayments({ rows, balanceCents, children }: { rows: PaymentRow[]; balanceCents: number; children?: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Payments</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {rows.length === 0 ? (
          <p className="text-muted-foreground">No payment yet.</p>
        ) : (
          <Table aria-label="Payments">
            <TableHeader>
              <TableRow>
                <TableHead>Date (UTC)</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead className="text-right">Amount</TableHead>
                <TableHead>State</TableHead>
                <TableHead>Reference</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>
                    <UtcTime iso={r.createdAt} />
                  </TableCell>
                  <TableCell>{KIND[r.kind]}</TableCell>
                  <TableCell className="text-right tabular-nums">{r.kind === "refund" ? `−${formatMoney(r.amountCents)}` : formatMoney(r.amountCents)}</TableCell>
                  <TableCell>{STATE[r.state]}</TableCell>
                  <TableCell className="break-all">{r.providerReference ?? "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <p>
          Balance: <strong className="tabular-nums">{formatMoney(balanceCents)}</strong>
        </p>
        {children}
      </CardContent>
    </Card>
  );
}
