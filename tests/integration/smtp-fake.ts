import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { SMTPConnection } from "smtp-server/lib/smtp-connection.js";

// smtp-server holds every new connection 100 ms before its greeting, to catch clients that talk
// before it; nodemailer opens one connection per mail and waits for the greeting, so that hold
// only added up (200 mails: 20 s of mail-send-log's outage test). This fake greets at once.
SMTPConnection.prototype.init = function (this: SMTPConnection) {
  this._setListeners(() => this.connectionReady());
};

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string };

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no auth) that keeps what it receives, and can be
 * stopped and started again on the same port (an outage), made to refuse recipients (a 550) or to
 * answer slowly (so two senders overlap), or to keep a mail while its reply is lost (`loseReplies`).
 */
export async function startSmtpFake() {
  const received: ReceivedMail[] = [];
  const mode = { reject: null as string | null, delayMs: 0, loseReplies: 0 };
  let server: SMTPServer | null = null;
  let port = 0;

  const listen = async () => {
    if (server) return; // already listening
    const s = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (mode.reject) {
          const err = new Error(mode.reject) as Error & { responseCode: number };
          err.responseCode = 550;
          return callback(err);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";
          setTimeout(() => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              subject,
            });
            // The mail was accepted, but the sender never hears so (its reply was lost).
            if (mode.loseReplies > 0) {
              mode.loseReplies--;
              const err = new Error("451 connection lost before the reply") as Error & { responseCode: number };
              err.responseCode = 451;
              return callback(err);
            }
            callback();
          }, mode.delayMs);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.server.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve());
    });
    port = (s.server.address() as AddressInfo).port;
    server = s;
  };
  await listen();

  return {
    received,
    mode,
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    /** Nobody listens on the port any more: connections are refused. */
    stop: async () => {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    /** Back on the same port. */
    start: listen,
  };
}
