import { Link } from "react-router";
import type { SiteSettings } from "~/lib/site-settings";
import { NewsletterForm } from "./newsletter-form";

/** The footer (docs/rules/storefront.md). The newsletter box is completed by the settings/newsletter work. */
export function SiteFooter({
  footer,
  logoText,
  withdrawalLink = false,
}: {
  footer: SiteSettings["footer_content"];
  logoText: string;
  /** The owner turned the EU right of withdrawal on (docs/rules/returns.md). */
  withdrawalLink?: boolean;
}) {
  return (
    <footer className="mt-16 border-t bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 md:grid-cols-3">
        <div>
          <p className="text-lg font-semibold">{logoText}</p>
          <p className="mt-2 text-sm text-muted-foreground">{footer.brand_description}</p>
        </div>
        <div>
          <p className="font-semibold">Customer Care</p>
          <ul className="mt-2 space-y-1 text-sm text-muted-foreground">
            <li>
              <Link to="/contact" className="hover:text-primary">
                Contact Us
              </Link>
            </li>
            <li>Shipping &amp; Returns</li>
            {withdrawalLink ? (
              <li>
                <Link to="/withdraw" className="hover:text-primary">
                  Withdraw from contract
                </Link>
              </li>
            ) : null}
            {/* A guest's copy or erasure of their data, confirmed by a mailed link (docs/rules/personal-data.md). */}
            <li>
              <Link to="/your-data" className="hover:text-primary">
                Your data
              </Link>
            </li>
            <li>FAQ</li>
            {/* The owner-edited pages (docs/rules/visitor-storage.md). */}
            <li>
              <Link to="/privacy" className="hover:text-primary">
                Privacy
              </Link>
            </li>
            <li>
              <Link to="/accessibility" className="hover:text-primary">
                Accessibility
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <p className="font-semibold">{footer.newsletter_title}</p>
          <p className="mt-2 text-sm text-muted-foreground">{footer.newsletter_description}</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t py-4 text-center text-sm text-muted-foreground">{footer.copyright}</div>
    </footer>
  );
}
