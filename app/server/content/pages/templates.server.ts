import { SHOP_PAGES } from "~/lib/shop-pages";
import { STORAGE_KIND_LABEL, VISITOR_STORAGE } from "~/lib/visitor-storage";

/**
 * The pages' templates, shown until the owner saves their own text (docs/rules/visitor-storage.md).
 * Built when read, so the privacy template's list of cookies and storage keys is always the shop's
 * list as it is in the code (app/lib/visitor-storage.ts). Only tags the blog sanitizer keeps.
 */

export type TemplateFacts = { shopName: string; shopEmail: string };

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function contact({ shopEmail }: TemplateFacts) {
  const mail = escape(shopEmail);
  return `<a href="mailto:${mail}">${mail}</a> or the <a href="/contact">contact page</a>`;
}

export function privacyTemplate(facts: TemplateFacts): string {
  const shop = escape(facts.shopName);
  const keys = VISITOR_STORAGE.map(
    (k) =>
      `<li><strong>${escape(k.name)}</strong> (${STORAGE_KIND_LABEL[k.kind]}${k.who === "staff" ? ", admin pages only" : ""}): ` +
      `${escape(k.purpose)} Kept: ${escape(k.lifetime)} Why it is strictly necessary: ${escape(k.necessary)}</li>`,
  ).join("");
  return [
    `<h2>Who we are</h2>`,
    `<p>${shop} runs this shop and decides what is done with the personal data you give it. Write to us at ${contact(facts)} with any question about your data.</p>`,
    `<h2>What we keep and why</h2>`,
    `<ul>`,
    `<li><strong>Orders</strong>: your name, address, email and what you bought, to deliver your order, handle returns and keep the records tax law requires.</li>`,
    `<li><strong>Your account</strong>, if you make one: your email, name, saved addresses and saved cart, until you delete the account.</li>`,
    `<li><strong>Messages</strong> you send through the contact form, to answer them.</li>`,
    `<li><strong>The newsletter</strong>, only after you confirm your address by the link we mail you; every newsletter has a link to leave.</li>`,
    `</ul>`,
    `<p>Card details are entered on the payment provider's page and never reach this shop.</p>`,
    `<h2>Cookies and storage in your browser</h2>`,
    `<p>This shop keeps only what it needs to work for you: no analytics, advertising or tracking cookies, and nothing from other companies. Visits are counted on our server without any cookie. So there is nothing to accept or refuse. Here is everything it keeps in your browser:</p>`,
    `<ul>${keys}</ul>`,
    `<h2>Your rights</h2>`,
    `<p>You may ask for a copy of your data, have it corrected or erased, and object to how it is used. Write to us at ${contact(facts)}. You may also complain to your data protection authority.</p>`,
  ].join("");
}

export function accessibilityTemplate(facts: TemplateFacts): string {
  const shop = escape(facts.shopName);
  return [
    `<h2>Our aim</h2>`,
    `<p>${shop} wants everyone to be able to shop here, whatever device, browser or assistive technology they use. This shop aims to conform to the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA.</p>`,
    `<h2>How we test it</h2>`,
    `<ul>`,
    `<li>Every page of the shop, the account pages, the checkout and the admin is checked automatically with axe-core against the WCAG 2.0, 2.1 and 2.2 A and AA rules, at desktop and phone widths, with menus and dialogs open and forms showing their errors.</li>`,
    `<li>Buying a product and handling an order are tested with the keyboard alone, with the focus always visible.</li>`,
    `<li>These checks run before every release.</li>`,
    `</ul>`,
    `<h2>Known limitations</h2>`,
    `<ul>`,
    `<li>Automated checks find only part of the barriers people meet; we have not yet had the shop reviewed by people who use screen readers every day.</li>`,
    `<li>Product photos and blog posts are written by us: an image may lack a useful description until we notice it.</li>`,
    `</ul>`,
    `<h2>Tell us about a barrier</h2>`,
    `<p>If something on this site is hard or impossible for you to use, write to us at ${contact(facts)}. Say which page and what happened; we answer within a few working days and can take your order by email meanwhile.</p>`,
  ].join("");
}

export const TEMPLATES = { privacy: privacyTemplate, accessibility: accessibilityTemplate } as const;
export const pageTitle = (slug: keyof typeof SHOP_PAGES) => SHOP_PAGES[slug].title;
