import { useState } from "react";
import { ImageOff } from "lucide-react";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import type { ProductFormValues } from "~/lib/product-input";

/** image_url may hold several addresses; the first http(s) one is the image (docs/rules/catalogue-data.md, Product). */
export function previewUrl(imageUrl: string): string | null {
  const s = imageUrl.trim();
  if (s.startsWith("/")) return s.split(/[\s,]/)[0] ?? null;
  return /https?:\/\/[^\s,;"'<>]+/i.exec(s)?.[0] ?? null;
}

function ImagePreview({ url }: { url: string | null }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (!url) return null;
  return (
    <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted">
      {broken === url ? (
        <ImageOff className="size-6 text-muted-foreground" aria-label="The image could not be loaded" />
      ) : (
        <img src={url} alt="Preview of the product image" className="size-full object-cover" onError={() => setBroken(url)} />
      )}
    </div>
  );
}

export function ProductFormFields({
  form,
  errors,
  categories,
  onChange,
  lowStockDefault,
}: {
  form: ProductFormValues;
  errors: Record<string, string>;
  categories: string[];
  onChange: <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => void;
  /** The shop's default threshold, shown as the placeholder of a blank one. */
  lowStockDefault?: number;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField id="pd-name" label="Product Name" error={errors.name}>
        <Input id="pd-name" value={form.name} required maxLength={200} onChange={(e) => onChange("name", e.target.value)} {...fieldAria("pd-name", errors.name)} />
      </FormField>
      <FormField id="pd-sku" label="SKU" error={errors.sku}>
        <Input id="pd-sku" value={form.sku} maxLength={64} onChange={(e) => onChange("sku", e.target.value)} {...fieldAria("pd-sku", errors.sku)} />
      </FormField>
      <FormField id="pd-description" label="Description" error={errors.description} className="space-y-2 sm:col-span-2">
        <Textarea
          id="pd-description"
          rows={3}
          value={form.description}
          onChange={(e) => onChange("description", e.target.value)}
          {...fieldAria("pd-description", errors.description)}
        />
      </FormField>
      <FormField id="pd-image" label="Image URL" error={errors.imageUrl} className="space-y-2 sm:col-span-2">
        <div className="flex items-start gap-3">
          <Input
            id="pd-image"
            inputMode="url"
            placeholder="https://…"
            value={form.imageUrl}
            onChange={(e) => onChange("imageUrl", e.target.value)}
            {...fieldAria("pd-image", errors.imageUrl)}
          />
          <ImagePreview url={previewUrl(form.imageUrl)} />
        </div>
      </FormField>
      <FormField id="pd-price" label="Price" error={errors.price}>
        <Input
          id="pd-price"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          required
          value={form.price}
          onChange={(e) => onChange("price", e.target.value)}
          {...fieldAria("pd-price", errors.price)}
        />
      </FormField>
      <FormField id="pd-original-price" label="Original Price" error={errors.originalPrice}>
        <Input
          id="pd-original-price"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder="None"
          value={form.originalPrice}
          onChange={(e) => onChange("originalPrice", e.target.value)}
          {...fieldAria("pd-original-price", errors.originalPrice)}
        />
      </FormField>
      <div className="space-y-3">
        <div className="flex items-center gap-2">
          <Switch id="pd-unlimited" checked={form.unlimitedStock} onCheckedChange={(v) => onChange("unlimitedStock", v)} />
          <Label htmlFor="pd-unlimited">Unlimited Stock</Label>
        </div>
        {!form.unlimitedStock && (
          <FormField id="pd-stock" label="Stock" error={errors.stockQuantity}>
            <Input
              id="pd-stock"
              type="number"
              inputMode="numeric"
              step="1"
              min="0"
              value={form.stockQuantity}
              onChange={(e) => onChange("stockQuantity", e.target.value)}
              {...fieldAria("pd-stock", errors.stockQuantity)}
            />
          </FormField>
        )}
      </div>
      <FormField id="pd-cost" label="Cost per item" error={errors.cost}>
        <Input
          id="pd-cost"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder="Not given"
          value={form.cost}
          onChange={(e) => onChange("cost", e.target.value)}
          {...fieldAria("pd-cost", errors.cost)}
        />
      </FormField>
      {!form.unlimitedStock && (
        <FormField
          id="pd-low-stock"
          label="Low-stock threshold"
          error={errors.lowStockThreshold}
          hint="At or below this stock the shop mails you once. Blank: the shop's default."
        >
          <Input
            id="pd-low-stock"
            type="number"
            inputMode="numeric"
            step="1"
            min="0"
            placeholder={lowStockDefault === undefined ? "Shop default" : `Shop default (${lowStockDefault})`}
            value={form.lowStockThreshold}
            onChange={(e) => onChange("lowStockThreshold", e.target.value)}
            {...fieldAria("pd-low-stock", errors.lowStockThreshold, true)}
          />
        </FormField>
      )}
      <FormField id="pd-weight" label="Weight (g)" error={errors.weightGrams}>
        <Input
          id="pd-weight"
          type="number"
          inputMode="numeric"
          step="1"
          min="0"
          max="1000000"
          placeholder="Not given"
          value={form.weightGrams}
          onChange={(e) => onChange("weightGrams", e.target.value)}
          {...fieldAria("pd-weight", errors.weightGrams)}
        />
      </FormField>
      <FormField id="pd-category" label="Category" error={errors.category}>
        <NativeSelect
          id="pd-category"
          wrapperClassName="w-full"
          value={form.category}
          onChange={(e) => onChange("category", e.target.value)}
          {...fieldAria("pd-category", errors.category)}
        >
          <NativeSelectOption value="">Choose a category</NativeSelectOption>
          {categories.map((name) => (
            <NativeSelectOption key={name} value={name}>
              {name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      <div className="flex items-center gap-2">
        <Switch id="pd-active" checked={form.active} onCheckedChange={(v) => onChange("active", v)} />
        <Label htmlFor="pd-active">Active</Label>
      </div>
      <div className="flex items-center gap-2">
        <Switch id="pd-featured" checked={form.featured} onCheckedChange={(v) => onChange("featured", v)} />
        <Label htmlFor="pd-featured">Featured</Label>
      </div>
    </div>
  );
}
