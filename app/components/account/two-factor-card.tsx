import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, FormAlert } from "./form-bits";

export type TwoFactorResult = {
  ok: boolean;
  intent: string;
  message?: string;
  secret?: string;
  totpURI?: string;
  /** The totpURI as a QR code (SVG markup made on the server by uqr: rectangles only). */
  qrSvg?: string;
  backupCodes?: string[];
};

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">Backup codes</p>
      <p className="text-sm text-muted-foreground">
        Keep these somewhere safe. Each one signs you in once if you lose your authenticator. They are shown only now.
      </p>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-1 rounded-md bg-muted p-3 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </div>
  );
}

function PasswordForm({ intent, label, variant = "default" }: { intent: string; label: string; variant?: "default" | "outline" | "destructive" }) {
  return (
    <Form method="post" aria-label={label} className="grid gap-3 sm:max-w-sm">
      <input type="hidden" name="intent" value={intent} />
      <Field label="Current password" id={`${intent}-password`} name="password" type="password" autoComplete="current-password" required />
      <div>
        <Button type="submit" variant={variant}>
          {label}
        </Button>
      </div>
    </Form>
  );
}

/** Admins' two-factor sign-in (TOTP with backup codes), asked at every sign-in once on. */
export function TwoFactorCard({ enabled, result }: { enabled: boolean; result?: TwoFactorResult }) {
  const setup = result?.ok && result.intent === "2fa-start" ? result : undefined;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2 text-lg font-semibold">
            Two-factor authentication
            <Badge variant={enabled ? "success" : "secondary"}>{enabled ? "On" : "Off"}</Badge>
          </h2>
        </CardTitle>
        <CardDescription>
          A code from an authenticator app is asked at every sign-in, so a stolen password alone cannot open the admin area.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {result && !result.ok ? <FormAlert title="Two-factor authentication">{result.message}</FormAlert> : null}
        {result?.ok && result.intent === "2fa-confirm" ? <FormAlert title="Two-factor authentication is on" tone="success" /> : null}
        {result?.ok && result.intent === "2fa-disable" ? <FormAlert title="Two-factor authentication is off" tone="success" /> : null}
        {setup ? (
          <div className="grid gap-4">
            <ol className="list-decimal space-y-1 pl-5 text-sm">
              <li>
                Scan this code with your authenticator app:
                {setup.qrSvg ? (
                  <div
                    role="img"
                    aria-label="QR code for your authenticator app"
                    className="my-2 size-48 rounded-md border bg-white p-1 [&>svg]:size-full"
                    dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
                  />
                ) : null}
                or add an account with this setup key:{" "}
                <code className="rounded bg-muted px-1 font-mono break-all" aria-label="Setup key">
                  {setup.secret}
                </code>{" "}
                (or{" "}
                <a href={setup.totpURI} className="text-primary underline">
                  open it in your authenticator app
                </a>
                ).
              </li>
              <li>Save the backup codes below.</li>
              <li>Enter the 6-digit code the app shows.</li>
            </ol>
            <BackupCodes codes={setup.backupCodes ?? []} />
            <Form method="post" className="grid gap-3 sm:max-w-sm">
              <input type="hidden" name="intent" value="2fa-confirm" />
              <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required />
              <div>
                <Button type="submit">Turn on</Button>
              </div>
            </Form>
          </div>
        ) : enabled ? (
          <div className="grid gap-6">
            {result?.ok && result.intent === "2fa-backup-codes" ? <BackupCodes codes={result.backupCodes ?? []} /> : null}
            <PasswordForm intent="2fa-backup-codes" label="New backup codes" variant="outline" />
            <PasswordForm intent="2fa-disable" label="Turn off two-factor" variant="destructive" />
          </div>
        ) : (
          <PasswordForm intent="2fa-start" label="Set up two-factor" />
        )}
      </CardContent>
    </Card>
  );
}
