import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { Button } from "~/components/ui/lean/button";
import { Clock } from "~/components/ui/lean/icons/clock";
import { Mail } from "~/components/ui/lean/icons/mail";
import { MapPin } from "~/components/ui/lean/icons/map-pin";
import { Phone } from "~/components/ui/lean/icons/phone";
import { Send } from "~/components/ui/lean/icons/send";
import { Input } from "~/components/ui/lean/input";
import { Label } from "~/components/ui/lean/label";
import { Textarea } from "~/components/ui/lean/textarea";
import { MESSAGE_MAX_CHARS } from "~/lib/contact";

type Field = "name" | "email" | "subject" | "message";

export type ContactResult =
  | { ok: true; message: string }
  | { ok: false; error: string; reason: string; fieldErrors?: Record<string, string>; values?: Record<Field, string> };

const REPLY_PROMISE = "We'll get back to you within 24 hours.";

/** The contact form. A plain form post, so it works before (or without) JavaScript. */
export function ContactForm({ result }: { result: ContactResult | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/contact";
  // A new key after each success empties the fields; after a failure they keep what was typed.
  const [sent, setSent] = useState(0);
  const announced = useRef<unknown>(null);
  useEffect(() => {
    if (!result || announced.current === result) return;
    announced.current = result;
    if (result.ok) {
      toast.success(result.message, { description: REPLY_PROMISE });
      setSent((n) => n + 1);
    } else {
      toast.error(result.error, result.reason ? { description: result.reason } : undefined);
    }
  }, [result]);

  const failed = result && !result.ok ? result : undefined;
  const field = (name: Field) => ({
    id: `contact-${name}`,
    name,
    required: true,
    defaultValue: failed?.values?.[name] ?? "",
    "aria-invalid": failed?.fieldErrors?.[name] ? true : undefined,
    "aria-describedby": failed?.fieldErrors?.[name] ? `contact-${name}-error` : undefined,
  });
  const error = (name: Field) =>
    failed?.fieldErrors?.[name] ? (
      <p id={`contact-${name}-error`} className="text-sm text-destructive">
        {failed.fieldErrors[name]}
      </p>
    ) : null;

  return (
    <section aria-labelledby="contact-form-title" className="rounded-xl border bg-card p-6 shadow-sm">
      <h2 id="contact-form-title" className="text-xl font-semibold">
        Send us a message
      </h2>
      <Form method="post" action="/contact" key={sent} className="mt-6 space-y-4" aria-busy={sending}>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor="contact-name">Name</Label>
            <Input {...field("name")} autoComplete="name" maxLength={100} />
            {error("name")}
          </div>
          <div className="space-y-2">
            <Label htmlFor="contact-email">Email</Label>
            <Input {...field("email")} type="email" autoComplete="email" maxLength={254} />
            {error("email")}
          </div>
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-subject">Subject</Label>
          <Input {...field("subject")} maxLength={200} />
          {error("subject")}
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-message">Message</Label>
          <Textarea {...field("message")} rows={6} maxLength={MESSAGE_MAX_CHARS} className="min-h-36" />
          {error("message")}
        </div>
        <div role="status" aria-live="polite" className="text-sm empty:hidden">
          {result?.ok ? `${result.message} ${REPLY_PROMISE}` : null}
          {failed ? (
            <span className="text-destructive">{[failed.error, failed.reason].filter(Boolean).join(" ")}</span>
          ) : null}
        </div>
        <Button type="submit" disabled={sending} className="w-full sm:w-auto">
          <Send aria-hidden="true" />
          {sending ? "Sending..." : "Send Message"}
        </Button>
      </Form>
    </section>
  );
}

export function ContactDetails({ email }: { email: string }) {
  const items = [
    {
      icon: Mail,
      title: "Email",
      body: (
        <a href={`mailto:${email}`} className="hover:text-primary">
          {email}
        </a>
      ),
    },
    {
      icon: Phone,
      title: "Phone",
      body: (
        <a href="tel:+15551234567" className="hover:text-primary">
          +1 (555) 123-4567
        </a>
      ),
    },
    { icon: Clock, title: "Hours", body: <>Mon-Fri 9am-6pm EST</> },
    { icon: MapPin, title: "Address", body: <>123 Linen Lane, Portland, OR 97205</> },
  ];
  return (
    <section aria-labelledby="contact-details-title">
      <h2 id="contact-details-title" className="text-xl font-semibold">
        Get in touch
      </h2>
      <p className="mt-2 text-sm text-muted-foreground">We reply to every message within 24 hours.</p>
      <dl className="mt-4 space-y-4">
        {items.map(({ icon: Icon, title, body }) => (
          // A group holds only its <dt> and <dd> (axe: definition-list, dlitem): the icon sits in the term.
          <div key={title}>
            <dt className="flex items-center gap-3 font-medium">
              <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
              {title}
            </dt>
            <dd className="pl-8 text-sm text-muted-foreground">{body}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const FAQ = [
  { q: "How long does shipping take?", a: "Standard shipping takes 3-5 business days." },
  { q: "What is your return policy?", a: "30-day returns on all items." },
  { q: "How do I track my order?", a: "A tracking number is sent by email once the order ships." },
];

/** Native disclosure elements: keyboard-usable and working without JavaScript. */
export function ContactFaq() {
  return (
    <section aria-labelledby="contact-faq-title">
      <h2 id="contact-faq-title" className="text-xl font-semibold">
        Frequently Asked Questions
      </h2>
      <div className="mt-4 divide-y rounded-xl border">
        {FAQ.map(({ q, a }) => (
          <details key={q} className="group px-4 py-3" open>
            <summary className="cursor-pointer font-medium marker:text-muted-foreground">{q}</summary>
            <p className="mt-2 text-sm text-muted-foreground">{a}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
