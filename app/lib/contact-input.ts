import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { MESSAGE_MAX_CHARS } from "./contact";

/** A single line: control characters (CR, LF, tab, NUL…) become spaces, so a subject can never add a mail header. */
const oneLine = (v: string) =>
  v
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The contact form: name, email, subject and message are required (docs/rules/storefront.md). */
export const ContactInput = z.object({
  name: z
    .string()
    .transform(oneLine)
    .pipe(z.string().min(1, "Name is required").max(100, "Name must be at most 100 characters")),
  email: z
    .string()
    .trim()
    .min(1, "Email is required")
    .max(254, "Enter a valid email address")
    .pipe(z.email("Enter a valid email address")),
  subject: z
    .string()
    .transform(oneLine)
    .pipe(z.string().min(1, "Subject is required").max(200, "Subject must be at most 200 characters")),
  message: z
    .string()
    // NUL cannot be stored in PostgreSQL text; other characters (newlines included) are kept.
    .transform((v) => v.replace(/\u0000/g, "").trim())
    .pipe(
      z
        .string()
        .min(1, "Message is required")
        .max(MESSAGE_MAX_CHARS, `Message must be at most ${MESSAGE_MAX_CHARS.toLocaleString("en-US")} characters`),
    ),
});
export type ContactMessageInput = z.output<typeof ContactInput>;
