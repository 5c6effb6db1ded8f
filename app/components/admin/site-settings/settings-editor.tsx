import { AlertCircle, Loader2, Save } from "lucide-react";
import { Suspense, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Await, Form, useNavigation, useRevalidator } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Skeleton } from "~/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { Textarea } from "~/components/ui/textarea";
import { LOW_STOCK_FIELD } from "~/lib/low-stock";
import type { SettingKey, SiteSettings } from "~/lib/site-settings";
import { FIELD_LABELS, SETTINGS_TABS, fieldName } from "~/lib/site-settings-form";
import type { MailTemplates } from "~/lib/mail-templates";
import { HslField } from "./hsl-field";
import { ImageSetting } from "./image-setting";
import { MailSettings } from "./mail-settings";
import { ReminderSettings } from "./reminder-settings";
import { ReturnsSettings } from "./returns-settings";
import { LowestPriceSettings } from "./lowest-price-settings";
import { RetentionSettings } from "./retention-settings";
import type { RetentionSetting } from "~/lib/personal-data";
import type { LowestPriceSetting } from "~/lib/lowest-price";
import type { ReturnsSetting } from "~/lib/returns";
import type { ReminderSetting } from "~/lib/abandoned-checkout";

export type SaveResult =
  { ok: true; message: string } | { ok: false; error: string; reason: string; fieldErrors: Record<string, string> };

function PageHeading({ children }: { children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Site Settings</h1>
        <p className="text-muted-foreground">Customize your store's appearance and content</p>
      </div>
      {children}
    </div>
  );
}

export function SettingsSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading site settings" className="space-y-6">
      <PageHeading>
        <Skeleton className="h-9 w-36" />
      </PageHeading>
      <Skeleton className="h-9 w-full max-w-xl" />
      <div className="space-y-4 rounded-xl border p-6">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="space-y-2">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-9 w-full" />
          </div>
        ))}
      </div>
    </div>
  );
}

export function SettingsLoadError({ message }: { message: string }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    toast.error(message);
  }, [message]);
  return (
    <div className="space-y-6">
      <PageHeading />
      <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 p-6">
        <p className="flex items-center gap-2 font-medium text-destructive">
          <AlertCircle className="size-5" aria-hidden="true" />
          {message}
        </p>
        <Button variant="outline" onClick={() => revalidator.revalidate()} disabled={revalidator.state !== "idle"}>
          Try again
        </Button>
      </div>
    </div>
  );
}

function TextSetting<K extends SettingKey>({
  settingKey,
  field,
  defaultValue,
  multiline,
  errors,
}: {
  settingKey: K;
  field: string;
  defaultValue: string;
  multiline?: boolean;
  errors: Record<string, string>;
}) {
  const id = useId();
  const name = fieldName(settingKey, field);
  const label = (FIELD_LABELS[settingKey] as Record<string, string>)[field]!;
  const error = errors[name];
  const common = { id, name, defaultValue, ...fieldAria(id, error) };
  return (
    <FormField id={id} label={label} error={error}>
      {multiline ? <Textarea rows={3} {...common} /> : <Input {...common} />}
    </FormField>
  );
}

/**
 * The editor: one form over the settings tabs (all tabs stay mounted, so 'Save Changes' sends every
 * field even from a tab never opened), saved in one request. The Emails tab sits outside that
 * form: each mail is saved, previewed and test-sent on its own (mail-settings.tsx).
 */
export function SettingsEditor({
  settings,
  lowStockThreshold,
  mailTemplates,
  reminder,
  returns,
  lowestPrice,
  retention,
  adminEmail,
  uploadLimit,
  saveResult,
}: {
  settings: SiteSettings;
  /** The shop's default low-stock threshold (the Inventory tab); may still be on its way. */
  lowStockThreshold: number | Promise<number>;
  /** The Emails tab's subjects and intros; may still be on their way. */
  mailTemplates: MailTemplates | Promise<MailTemplates>;
  /** The abandoned-checkout reminder's setting (Emails tab); may still be on its way. */
  reminder?: ReminderSetting | Promise<ReminderSetting>;
  /** The Returns tab's setting (return window, EU withdrawal); may still be on its way. */
  returns?: ReturnsSetting | Promise<ReturnsSetting>;
  /** The Prices tab's 30-day lowest price setting; may still be on its way. */
  lowestPrice?: LowestPriceSetting | Promise<LowestPriceSetting>;
  /** The Privacy tab's 'Keep order records for (years)'; may still be on its way. */
  retention?: RetentionSetting | Promise<RetentionSetting>;
  /** Where 'Send me a test' sends. */
  adminEmail: string;
  uploadLimit: string;
  saveResult: SaveResult | undefined;
}) {
  const [tab, setTab] = useState("branding");
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [logoUrl, setLogoUrl] = useState(settings.site_branding.logo_url);
  const [heroImage, setHeroImage] = useState(settings.hero_section.background_image);
  const [primary, setPrimary] = useState(settings.theme_colors.primary);
  const [secondary, setSecondary] = useState(settings.theme_colors.secondary);
  const errors = saveResult && !saveResult.ok ? saveResult.fieldErrors : {};

  const announced = useRef<unknown>(null);
  useEffect(() => {
    if (!saveResult || announced.current === saveResult) return;
    announced.current = saveResult;
    if (saveResult.ok) toast.success(saveResult.message);
    else toast.error(saveResult.error, { description: saveResult.reason });
  }, [saveResult]);

  const hint = `PNG, JPEG, GIF, WebP or AVIF, up to ${uploadLimit}. Save Changes to publish.`;
  const text = (key: SettingKey, field: string, multiline = false) => (
    <TextSetting
      settingKey={key}
      field={field}
      defaultValue={(settings[key] as Record<string, string>)[field] ?? ""}
      multiline={multiline}
      errors={errors}
    />
  );

  return (
    <Tabs value={tab} onValueChange={setTab} className="gap-6">
      <Form method="post" className="space-y-6" aria-busy={saving}>
        <input type="hidden" name="intent" value="save" />
        <PageHeading>
          {/* The Emails tab saves each mail with its own button. */}
          <Button type="submit" disabled={saving} className={tab === "emails" || tab === "returns" ? "hidden" : undefined}>
            {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            {saving ? "Saving..." : "Save Changes"}
          </Button>
        </PageHeading>

        {/* Without JavaScript there is no toast: the result is also written here. */}
        <div role="status" className="text-sm empty:hidden">
          {saveResult ? (saveResult.ok ? saveResult.message : `${saveResult.error}: ${saveResult.reason}`) : null}
        </div>

        <div className="flex flex-col gap-2">
          <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
            {SETTINGS_TABS.map((t) => (
              <TabsTrigger
                key={t.value}
                value={t.value}
                className={errorsIn(errors, t.key) ? "text-destructive" : undefined}
              >
                {t.label}
              </TabsTrigger>
            ))}
            <TabsTrigger value="inventory" className={errors[LOW_STOCK_FIELD] ? "text-destructive" : undefined}>
              Inventory
            </TabsTrigger>
            <TabsTrigger value="emails">Emails</TabsTrigger>
            {returns ? <TabsTrigger value="returns">Returns</TabsTrigger> : null}
            {lowestPrice ? <TabsTrigger value="prices">Prices</TabsTrigger> : null}
            {retention ? <TabsTrigger value="privacy">Privacy</TabsTrigger> : null}
          </TabsList>

          <Section value="branding" title="Branding" description="Your shop's name and logo in the header.">
            {text("site_branding", "logo_text")}
            <ImageSetting
              name={fieldName("site_branding", "logo_url")}
              label={FIELD_LABELS.site_branding.logo_url}
              intent="upload-logo"
              successMessage="Logo uploaded successfully"
              value={logoUrl}
              onChange={setLogoUrl}
              hint={hint}
            />
          </Section>

          <Section value="theme" title="Theme" description="Colours as HSL, for example hsl(220, 70%, 50%).">
            <HslField
              name={fieldName("theme_colors", "primary")}
              label={FIELD_LABELS.theme_colors.primary}
              value={primary}
              onChange={setPrimary}
              serverError={errors[fieldName("theme_colors", "primary")]}
            />
            <HslField
              name={fieldName("theme_colors", "secondary")}
              label={FIELD_LABELS.theme_colors.secondary}
              value={secondary}
              onChange={setSecondary}
              serverError={errors[fieldName("theme_colors", "secondary")]}
            />
          </Section>

          <Section value="hero" title="Hero Section" description="The large banner at the top of the home page.">
            {text("hero_section", "title")}
            {text("hero_section", "subtitle")}
            {text("hero_section", "description", true)}
            <div className="grid gap-4 sm:grid-cols-2">
              {text("hero_section", "cta_primary")}
              {text("hero_section", "cta_secondary")}
            </div>
            <ImageSetting
              name={fieldName("hero_section", "background_image")}
              label={FIELD_LABELS.hero_section.background_image}
              intent="upload-hero"
              successMessage="Hero background uploaded successfully"
              value={heroImage}
              onChange={setHeroImage}
              hint={hint}
            />
          </Section>

          <Section value="featured" title="Featured Section" description="The heading above the featured products.">
            {text("featured_section", "title")}
            {text("featured_section", "description", true)}
          </Section>

          <Section value="footer" title="Footer" description="The brand text, newsletter box and copyright line.">
            {text("footer_content", "brand_description", true)}
            {text("footer_content", "newsletter_title")}
            {text("footer_content", "newsletter_description", true)}
            {text("footer_content", "copyright")}
          </Section>

          <Section value="inventory" title="Inventory" description="When to warn you that a product is running out.">
            <Suspense fallback={<Skeleton className="h-9 w-40" />}>
              <Await resolve={lowStockThreshold}>
                {(n) => <LowStockSetting defaultValue={String(n)} error={errors[LOW_STOCK_FIELD]} />}
              </Await>
            </Suspense>
          </Section>
        </div>
      </Form>
      {/* Outside the settings form (forms cannot nest); kept mounted so unsaved edits survive a tab switch. */}
      <TabsContent value="emails" forceMount className="data-[state=inactive]:hidden">
        <Suspense fallback={<Skeleton className="h-64 w-full" />}>
          <Await resolve={mailTemplates}>{(templates) => <MailSettings templates={templates} adminEmail={adminEmail} />}</Await>
        </Suspense>
        {reminder ? (
          <Suspense fallback={<Skeleton className="mt-6 h-48 w-full" />}>
            <div className="mt-6">
              <Await resolve={reminder}>{(setting) => <ReminderSettings setting={setting} />}</Await>
            </div>
          </Suspense>
        ) : null}
      </TabsContent>
      {/* Saved on its own, like the Emails tab's cards. */}
      {returns ? (
        <TabsContent value="returns" forceMount className="data-[state=inactive]:hidden">
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <Await resolve={returns}>{(setting) => <ReturnsSettings setting={setting} />}</Await>
          </Suspense>
        </TabsContent>
      ) : null}
      {lowestPrice ? (
        <TabsContent value="prices" forceMount className="data-[state=inactive]:hidden">
          <Suspense fallback={<Skeleton className="h-48 w-full" />}>
            <Await resolve={lowestPrice}>{(setting) => <LowestPriceSettings setting={setting} />}</Await>
          </Suspense>
        </TabsContent>
      ) : null}
      {retention ? (
        <TabsContent value="privacy" forceMount className="data-[state=inactive]:hidden">
          <Suspense fallback={<Skeleton className="h-48 w-full" />}>
            <Await resolve={retention}>{(setting) => <RetentionSettings setting={setting} />}</Await>
          </Suspense>
        </TabsContent>
      ) : null}
    </Tabs>
  );
}

function LowStockSetting({ defaultValue, error }: { defaultValue: string; error?: string }) {
  const id = useId();
  return (
    <FormField
      id={id}
      label="Low-stock threshold"
      error={error}
      hint="A product with this many units or fewer needs restocking: it shows on the dashboard, and a sale that takes it there mails the shop once. A product's own threshold overrides this."
    >
      <Input
        id={id}
        name={LOW_STOCK_FIELD}
        type="number"
        inputMode="numeric"
        min="0"
        step="1"
        className="w-40"
        defaultValue={defaultValue}
        {...fieldAria(id, error, true)}
      />
    </FormField>
  );
}

function errorsIn(errors: Record<string, string>, key: SettingKey) {
  return Object.keys(errors).some((k) => k.startsWith(`${key}.`));
}

function Section({
  value,
  title,
  description,
  children,
}: {
  value: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    // forceMount keeps every tab's fields in the form; Radix hides the inactive ones.
    <TabsContent value={value} forceMount className="data-[state=inactive]:hidden">
      <Card>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">{children}</CardContent>
      </Card>
    </TabsContent>
  );
}
