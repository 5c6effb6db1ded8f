import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";

const NO_JOB = "Choose a failed job to try again.";

/** 'Try again' on the Background jobs page: the intent and the job's id (the queue's bigint, as digits). */
export const TryAgainInput = z.object({
  intent: z.literal("retry", { error: "This action is not supported." }),
  id: z
    .string({ error: NO_JOB })
    .trim()
    .regex(/^[1-9][0-9]{0,17}$/, NO_JOB),
});
