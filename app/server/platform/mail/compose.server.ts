import type { Db } from "../db/client.server";
import { publicUrl } from "../env.server";
import { getSiteSettings } from "../settings/settings.server";
import { getMailTemplates } from "./mail-settings.server";
import { mailBrand } from "./templates/brand.server";
import type { MailContext, RenderedMail } from "./templates/context.server";

export type { MailContext, RenderedMail };

/** A mail waiting for the shop's look and the owner's texts: the callers say what, this says how. */
export type MailDraft = (ctx: MailContext) => Promise<RenderedMail>;

/** The shop's name, logo and colours and the owner's subjects and intros, as saved now. */
export async function mailContext(db: Db): Promise<MailContext> {
  const settings = await getSiteSettings(db);
  const templates = await getMailTemplates(db);
  return { brand: mailBrand(settings, publicUrl()), templates };
}

export async function composeMail(db: Db, draft: MailDraft): Promise<RenderedMail> {
  return draft(await mailContext(db));
}
