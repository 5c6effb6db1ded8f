import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";

/**
 * Closes the connection after an answer that leaves the request's body unread: a 413 (the body
 * was over the route's limit; app/server/platform/http/read-body.server.ts reads a bounded part of it at
 * most), or any answer given before the body arrived whole (a rate limit or a sign-in check that
 * refuses first).
 *
 * Kept alive, such a connection is stuck: the rest of the body still sits in front of the next
 * request, nobody reads it, and a client that reuses the connection (an http.Agent with
 * keepAlive, undici, a proxy) sends its next request into it and gets a reset when the socket
 * times out. `Connection: close` tells the client not to reuse it, and Node closes it once the
 * answer is out.
 */
export function closeAfterUnreadBody() {
  return (req: Request, res: Response, next: NextFunction) => {
    closeIfUnread(req, res);
    next();
  };
}

export function shouldClose(req: Pick<IncomingMessage, "complete">, status: number): boolean {
  return status === 413 || !req.complete;
}

function closeIfUnread(req: IncomingMessage, res: ServerResponse) {
  const writeHead = res.writeHead;
  // Every way of answering goes through writeHead (res.end() and flushHeaders() call it too).
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const status = typeof args[0] === "number" ? args[0] : this.statusCode;
    if (!this.headersSent && shouldClose(req, status)) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
