import { Column } from "@react-email/column";
import { Img } from "@react-email/img";
import { Row } from "@react-email/row";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { formatMoney } from "~/lib/money";
import type { OrderMoneyRow } from "~/lib/order-money";
import { absoluteUrl, type MailBrand } from "./brand.server";
import { small } from "./layout.server";

/** What an order mail needs of the order row (the row itself has all of it). */
export type MailAddress = {
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
};

export type MailLineItem = { name: string; quantity: number; unitPriceCents: number; lineTotalCents: number; imageUrl?: string | null };

export const addressLines = (a: MailAddress) => [`${a.firstName} ${a.lastName}`, a.address, `${a.city}, ${a.state} ${a.zipCode}`, a.country];

const OWN_MEDIA = /^\/media\/([A-Za-z0-9][A-Za-z0-9._/-]*\.(?:webp|png|jpe?g|gif|avif))$/i;

/**
 * A line's picture as an absolute address: the shop's own uploads at the smallest resized width
 * (a mail shows 64 px), anything else as stored; null when there is none.
 */
export function lineImageUrl(imageUrl: string | null | undefined, baseUrl: string): string | null {
  if (!imageUrl) return null;
  const own = OWN_MEDIA.exec(imageUrl);
  if (own && !own[1]!.includes("..")) return `${baseUrl}/resized/320/${own[1]}`;
  return absoluteUrl(imageUrl, baseUrl);
}

const cell = { verticalAlign: "top" as const, padding: "8px 0" };

export function OrderLines({ brand, lines, prices = true }: { brand: MailBrand; lines: MailLineItem[]; prices?: boolean }) {
  return (
    <Section style={{ margin: "0 0 8px" }}>
      {lines.map((l, i) => {
        const image = lineImageUrl(l.imageUrl, brand.baseUrl);
        return (
          <Row key={i} style={{ borderBottom: `1px solid ${brand.border}` }}>
            <Column style={{ ...cell, width: 76 }}>
              {image ? (
                <Img src={image} alt={l.name} width="64" height="64" style={{ borderRadius: 6, objectFit: "cover", border: 0, display: "block" }} />
              ) : null}
            </Column>
            <Column style={cell}>
              <Text style={{ margin: 0, fontSize: 15, lineHeight: "22px", color: brand.foreground, fontWeight: 600 }}>{l.name}</Text>
              <Text style={{ ...small(brand), margin: 0 }}>
                {prices ? `${l.quantity} × ${formatMoney(l.unitPriceCents)}` : `Quantity: ${l.quantity}`}
              </Text>
            </Column>
            {prices ? (
              <Column style={{ ...cell, textAlign: "right", whiteSpace: "nowrap", fontSize: 15, color: brand.foreground }}>
                {formatMoney(l.lineTotalCents)}
              </Column>
            ) : null}
          </Row>
        );
      })}
    </Section>
  );
}

/** Every money line of the order's quote, the total in bold under a rule. */
export function MoneyTable({ brand, rows }: { brand: MailBrand; rows: OrderMoneyRow[] }) {
  return (
    <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ margin: "4px 0 20px", fontSize: 15, color: brand.foreground }}>
      <tbody>
        {rows.map((m) => {
          const total = m.key === "total";
          const style = { padding: total ? "10px 0 0" : "3px 0", borderTop: total ? `1px solid ${brand.border}` : undefined, fontWeight: total ? 700 : 400 };
          return (
            <tr key={m.key} data-money={m.key}>
              <td style={style}>{m.label}</td>
              <td style={{ ...style, textAlign: "right", whiteSpace: "nowrap" }}>{m.value}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function AddressBlock({ brand, title, address }: { brand: MailBrand; title: string; address: MailAddress }) {
  return (
    <Section style={{ backgroundColor: brand.muted, borderRadius: 6, padding: "12px 16px", margin: "0 0 20px" }}>
      <Text style={{ ...small(brand), margin: "0 0 4px", fontWeight: 600, textTransform: "uppercase", letterSpacing: "0.04em" }}>{title}</Text>
      <Text style={{ margin: 0, fontSize: 15, lineHeight: "22px", color: brand.foreground }}>
        {addressLines(address).map((line, i) => (
          <span key={i}>
            {i > 0 ? <br /> : null}
            {line}
          </span>
        ))}
      </Text>
    </Section>
  );
}
