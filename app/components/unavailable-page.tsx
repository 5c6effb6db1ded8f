import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { ServerErrorContent } from "~/components/error-pages";
import { links } from "~/root";

/**
 * The page a request refused for lack of capacity gets (503): by admission control
 * (app/server/platform/http/admission.server.ts), or because the shop was too busy to render its
 * page in time (app/entry.server.tsx). The shop's own "briefly unavailable" page, as the root
 * error boundary shows it during a database outage, with the shop's stylesheet. Made once,
 * without the database and without scripts (it is a dead end: "Return to Home" reloads the
 * page), so answering it costs next to nothing however many are refused.
 */
let page: string | undefined;

export function unavailablePage(): string {
  if (page) return page;
  const head = links()
    .filter((l): l is typeof l & { rel: string; href: string } => "rel" in l && "href" in l && typeof l.href === "string")
    .map((l) => {
      const attrs = { rel: l.rel, href: l.href, sizes: "sizes" in l ? l.sizes : undefined, type: "type" in l ? l.type : undefined };
      return `<link ${Object.entries(attrs)
        .filter(([, v]) => typeof v === "string")
        .map(([k, v]) => `${k}="${escape(String(v))}"`)
        .join(" ")}>`;
    })
    .join("");
  const body = renderToStaticMarkup(
    <MemoryRouter>
      <main id="main">
        <ServerErrorContent status={503} />
      </main>
    </MemoryRouter>,
  );
  page =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="theme-color" content="#ffffff"><meta name="robots" content="noindex"><title>The shop is briefly unavailable</title>${head}</head>` +
    `<body class="min-h-screen bg-background font-sans text-foreground antialiased">${body}</body></html>`;
  return page;
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
