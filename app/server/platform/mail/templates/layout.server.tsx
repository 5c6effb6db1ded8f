import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { Fragment, type CSSProperties, type ReactNode } from "react";
import type { MailBrand } from "./brand.server";

/**
 * The frame every mail of the shop shares: a bar in the theme's primary colour, the logo (its alt
 * text is the shop's name, so a mail program that blocks images still shows who wrote) or the
 * name as text, the content, and a footer with the shop's address. Tables and inline styles only,
 * as mail programs need; everything readable without images.
 */

export const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export function MailLayout({ brand, preview, children }: { brand: MailBrand; preview: string; children: ReactNode }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: brand.muted, color: brand.foreground, fontFamily: FONT, margin: 0, padding: "24px 8px" }}>
        <Container
          style={{
            maxWidth: 600,
            width: "100%",
            backgroundColor: brand.background,
            border: `1px solid ${brand.border}`,
            borderTop: `6px solid ${brand.primary}`,
            borderRadius: 8,
          }}
        >
          <Section style={{ padding: "20px 24px 4px" }}>
            <Link href={`${brand.baseUrl}/`} style={{ color: brand.foreground, fontSize: 22, fontWeight: 700, textDecoration: "none" }}>
              {brand.logoUrl ? (
                <Img src={brand.logoUrl} alt={brand.name} height="40" style={{ height: 40, width: "auto", maxWidth: 240, border: 0 }} />
              ) : (
                brand.name
              )}
            </Link>
          </Section>
          <Section style={{ padding: "8px 24px 16px" }}>{children}</Section>
          <Section style={{ padding: "0 24px 20px" }}>
            <Hr style={{ borderColor: brand.border, margin: "0 0 12px" }} />
            <Text style={{ ...small(brand), margin: 0 }}>
              {brand.name} · <Link href={`${brand.baseUrl}/`} style={{ color: brand.mutedForeground }}>{hostOf(brand.baseUrl)}</Link>
              {" · "}Questions? Reply to this email or write to us at{" "}
              <Link href={`${brand.baseUrl}/contact`} style={{ color: brand.mutedForeground }}>
                {hostOf(brand.baseUrl)}/contact
              </Link>
              .
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

const hostOf = (url: string) => url.replace(/^https?:\/\//, "");

export const small = (brand: MailBrand): CSSProperties => ({ color: brand.mutedForeground, fontSize: 13, lineHeight: "20px" });
export const body = (brand: MailBrand): CSSProperties => ({ color: brand.foreground, fontSize: 16, lineHeight: "24px", margin: "0 0 16px" });

export function Heading1({ brand, children }: { brand: MailBrand; children: ReactNode }) {
  return <Text style={{ color: brand.foreground, fontSize: 22, lineHeight: "30px", fontWeight: 700, margin: "8px 0 12px" }}>{children}</Text>;
}

/** The owner's intro: plain text (React escapes it), each line break kept. */
export function Intro({ brand, text }: { brand: MailBrand; text: string }) {
  const lines = text.split(/\r?\n/);
  return (
    <Text style={body(brand)}>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </Text>
  );
}

export function Paragraph({ brand, children }: { brand: MailBrand; children: ReactNode }) {
  return <Text style={body(brand)}>{children}</Text>;
}

/**
 * The mail's main action, with its address written out under it: a program that drops the
 * button's styling, or a reader who prefers to copy, still has the link.
 */
export function ActionButton({ brand, href, label }: { brand: MailBrand; href: string; label: string }) {
  return (
    <Section style={{ margin: "8px 0 20px" }}>
      <Button
        href={href}
        style={{
          backgroundColor: brand.primary,
          color: brand.onPrimary,
          borderRadius: 6,
          fontSize: 16,
          fontWeight: 600,
          padding: "12px 20px",
          textDecoration: "none",
          display: "inline-block",
        }}
      >
        {label}
      </Button>
      <Text style={{ ...small(brand), margin: "12px 0 0", wordBreak: "break-all" }}>
        Or open this address: <Link href={href} style={{ color: brand.primary }}>{href}</Link>
      </Text>
    </Section>
  );
}
