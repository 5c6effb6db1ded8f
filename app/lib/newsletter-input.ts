import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";

/** The footer box's address: required, a valid email, at most 254 characters. */
export const NewsletterInput = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address")
    .max(254, "Enter a valid email address")
    .pipe(z.email("Enter a valid email address")),
});
