import { Loader2, RotateCcw, Save, Send } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { EDITABLE_MAILS, INTRO_MAX, MAIL_DEFINITIONS, PLACEHOLDERS, SUBJECT_MAX, type EditableMail, type MailTemplates } from "~/lib/mail-templates";
import type { MailPreview, MailSettingsAnswer } from "~/lib/mail-settings-view";
import { MailHtmlFrame } from "../outbox-parts";

/** Where the editor previews, saves and test-sends (app/routes/admin/site-settings-emails.ts). */
export const MAIL_SETTINGS_ACTION = "/admin/site-settings/emails";

/**
 * Site Settings → Emails: pick a mail, edit its subject and intro, watch the preview follow
 * (rendered by the server, shown in a sandboxed frame: react-email never reaches the browser),
 * save, or send a test to yourself. A blank field means the default.
 */
export function MailSettings({ templates, adminEmail }: { templates: MailTemplates; adminEmail: string }) {
  const [kind, setKind] = useState<EditableMail>("order-confirmation");
  const selectId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Emails</CardTitle>
        <CardDescription>
          The subject and the opening paragraph of each mail the shop sends; the rest (lines, amounts, links) is filled in for each
          customer. Mails use your logo, name and colours from Branding and Theme.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="space-y-2">
          <label htmlFor={selectId} className="text-sm font-medium">
            Mail
          </label>
          <NativeSelect id={selectId} value={kind} onChange={(e) => setKind(e.target.value as EditableMail)} className="w-full sm:w-80">
            {EDITABLE_MAILS.map((k) => (
              <option key={k} value={k}>
                {MAIL_DEFINITIONS[k].label}
              </option>
            ))}
          </NativeSelect>
          <p className="text-xs text-muted-foreground">{MAIL_DEFINITIONS[kind].description}</p>
        </div>
        {/* One editor per mail: switching mails shows that mail's saved text. */}
        <MailEditor key={kind} kind={kind} saved={templates[kind]} adminEmail={adminEmail} />
      </CardContent>
    </Card>
  );
}

function MailEditor({ kind, saved, adminEmail }: { kind: EditableMail; saved: MailTemplates[EditableMail]; adminEmail: string }) {
  const def = MAIL_DEFINITIONS[kind];
  // Saved values equal to the default show as blank ("uses the default").
  const [subject, setSubject] = useState(saved.subject === def.subject ? "" : saved.subject);
  const [intro, setIntro] = useState(saved.intro === def.intro ? "" : saved.intro);
  const preview = useLivePreview(kind, subject, intro);
  const fetcher = useFetcher<MailSettingsAnswer>();
  const busyIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  const subjectId = useId();
  const introId = useId();

  const announced = useRef<unknown>(null);
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle" || announced.current === answer) return;
    announced.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [fetcher.data, fetcher.state]);

  const placeholders = def.placeholders.map((p) => `{${p}}: ${PLACEHOLDERS[p]}`).join("; ");
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
      <fetcher.Form method="post" action={MAIL_SETTINGS_ACTION} className="space-y-4" aria-label={`${def.label} mail`}>
        <input type="hidden" name="kind" value={kind} />
        <FormField id={subjectId} label="Subject" error={errors.subject} hint={`Blank: "${def.subject}". One line, up to ${SUBJECT_MAX} characters.`}>
          <Input
            id={subjectId}
            name="subject"
            value={subject}
            maxLength={SUBJECT_MAX}
            placeholder={def.subject}
            onChange={(e) => setSubject(e.target.value)}
            {...fieldAria(subjectId, errors.subject, true)}
          />
        </FormField>
        <FormField id={introId} label="Intro" error={errors.intro} hint={`Blank: "${def.intro}". Up to ${INTRO_MAX} characters, shown as plain text.`}>
          <Textarea
            id={introId}
            name="intro"
            rows={4}
            value={intro}
            maxLength={INTRO_MAX}
            placeholder={def.intro}
            onChange={(e) => setIntro(e.target.value)}
            {...fieldAria(introId, errors.intro, true)}
          />
        </FormField>
        <p className="text-xs text-muted-foreground">Placeholders: {placeholders}.</p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save" disabled={busyIntent != null}>
            {busyIntent === "save" ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            Save email
          </Button>
          <Button type="submit" name="intent" value="test" variant="outline" disabled={busyIntent != null}>
            {busyIntent === "test" ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
            Send me a test
          </Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setSubject("");
              setIntro("");
            }}
          >
            <RotateCcw aria-hidden="true" />
            Use the defaults
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">The test goes to {adminEmail}, filled with a sample order; it is listed in the Outbox.</p>
        <div role="status" className="text-sm empty:hidden">
          {fetcher.state === "idle" && fetcher.data ? fetcher.data.message : null}
        </div>
      </fetcher.Form>
      <MailPreviewPane preview={preview} label={def.label} />
    </div>
  );
}

type PreviewState = { status: "loading" | "ready" | "error"; mail: MailPreview | null; error?: string };

/** Renders the mail on the server as the fields change (a short pause after the last keystroke). */
function useLivePreview(kind: EditableMail, subject: string, intro: string): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: "loading", mail: null });
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setState((s) => ({ ...s, status: "loading" }));
      try {
        const body = new FormData();
        body.set("intent", "preview");
        body.set("kind", kind);
        body.set("subject", subject);
        body.set("intro", intro);
        const res = await fetch(MAIL_SETTINGS_ACTION, { method: "POST", body, signal: controller.signal, headers: { accept: "application/json" } });
        const answer = (await res.json()) as MailSettingsAnswer;
        if (answer.ok && answer.preview) setState({ status: "ready", mail: answer.preview });
        else setState((s) => ({ status: "error", mail: s.mail, error: answer.message }));
      } catch (err) {
        if ((err as Error).name !== "AbortError") setState((s) => ({ status: "error", mail: s.mail, error: "The preview could not be loaded." }));
      }
    }, 350);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kind, subject, intro]);
  return state;
}

function MailPreviewPane({ preview, label }: { preview: PreviewState; label: string }) {
  const [width, setWidth] = useState<600 | 375>(600);
  return (
    <section aria-labelledby="mail-preview-heading" className="min-w-0 space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="mail-preview-heading" className="font-semibold">
          Preview
        </h3>
        <div role="group" aria-label="Preview width" className="flex gap-1">
          {([600, 375] as const).map((w) => (
            <Button key={w} type="button" size="sm" variant={width === w ? "default" : "outline"} aria-pressed={width === w} onClick={() => setWidth(w)}>
              {w === 600 ? "Desktop" : "Phone"}
            </Button>
          ))}
        </div>
      </div>
      <p aria-live="polite" className="text-xs text-muted-foreground">
        {preview.status === "loading" ? "Updating the preview…" : preview.status === "error" ? preview.error : null}
      </p>
      {preview.mail ? (
        <>
          <p className="text-sm">
            <span className="text-muted-foreground">Subject: </span>
            <span data-testid="preview-subject">{preview.mail.subject}</span>
          </p>
          <div className="overflow-x-auto">
            <MailHtmlFrame html={preview.mail.html} title={`Preview of the ${label.toLowerCase()} mail`} width={width} />
          </div>
        </>
      ) : null}
    </section>
  );
}
