import { clsx } from "clsx";
import "./post-content.css";

/**
 * Renders blog HTML that the server has already sanitized (sanitizePostHtml). Never pass HTML
 * from anywhere else.
 */
export function PostContent({ html, className }: { html: string; className?: string }) {
  return <div className={clsx("post-content", className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
