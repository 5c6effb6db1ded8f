import { clsx } from "~/components/ui/lean/clsx";
import postContentCss from "./post-content.css?url";

/**
 * Renders blog HTML that the server has already sanitized (sanitizePostHtml). Never pass HTML
 * from anywhere else.
 */
export function PostContent({ html, className }: { html: string; className?: string }) {
  return (
    <>
      {/* With a precedence React puts it in <head> with the root's stylesheet, and a storefront
          page carries the rules it uses inline like the others (first-paint.server.ts). */}
      <link rel="stylesheet" href={postContentCss} precedence="default" />
      <div className={clsx("post-content", className)} dangerouslySetInnerHTML={{ __html: html }} />
    </>
  );
}
