import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { getRootLogger, requestScope } from "../logger.server";

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives each request an id (kept from a proxy's X-Request-Id when sane) and one summary line. */
export function requestLog() {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    const log = getRootLogger().child({ reqId: requestId });
    const started = process.hrtime.bigint();
    res.setHeader("X-Request-Id", requestId);
    res.locals.requestId = requestId;
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (req.path.startsWith("/assets/")) log.debug(line, "request");
      else log.info(line, "request");
    });
    requestScope.run({ requestId, log }, () => next());
  };
}
