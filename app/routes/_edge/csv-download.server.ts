import { logger } from "~/server/platform/http/index.server";

/**
 * A CSV file streamed to the browser chunk by chunk, so a large shop's export never sits in memory
 * at once. A failure midway is logged under `what` and ends the download with an error (the
 * browser reports a failed download rather than keeping a cut-off file as complete).
 */
export function csvDownload(
  chunks: AsyncGenerator<string, unknown, unknown>,
  filename: string,
  what: Record<string, unknown> & { msg: string },
) {
  const encoder = new TextEncoder();
  const { msg, ...context } = what;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        logger.error({ err, ...context }, msg);
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
