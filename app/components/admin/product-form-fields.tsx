import { useState, type ReactNode } from "react";
import { ImageOff } from "lucide-react";
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

function Field({
  id,
  label,
  error,
  children,
  className,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className ?? "space-y-2"}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

function invalid(id: string, error?: string) {
  return error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
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
}: {
  form: ProductFormValues;
  errors: Record<string, string>;
  categories: string[];
  onChange: <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="pd-name" label="Product Name" error={errors.name}>
        <Input id="pd-name" value={form.name} required maxLength={200} onChange={(e) => onChange("name", e.target.value)} {...invalid("pd-name", errors.name)} />
      </Field>
      <Field id="pd-sku" label="SKU" error={errors.sku}>
        <Input id="pd-sku" value={form.sku} maxLength={64} onChange={(e) => onChange("sku", e.target.value)} {...invalid("pd-sku", errors.sku)} />
      </Field>
      <Field id="pd-description" label="Description" error={errors.description} className="space-y-2 sm:col-span-2">
        <Textarea
          id="pd-description"
          rows={3}
          value={form.description}
          onChange={(e) => onChange("description", e.target.value)}
          {...invalid("pd-description", errors.description)}
        />
      </Field>
      <Field id="pd-image" label="Image URL" error={errors.imageUrl} className="space-y-2 sm:col-span-2">
        <div className="flex items-start gap-3">
          <Input
            id="pd-image"
            inputMode="url"
            placeholder="https://…"
            value={form.imageUrl}
            onChange={(e) => onChange("imageUrl", e.target.value)}
            {...invalid("pd-image", errors.imageUrl)}
          />
          <ImagePreview url={previewUrl(form.imageUrl)} />
        </div>
      </Field>
      <Field id="pd-price" label="Price" error={errors.price}>
        <Input
          id="pd-price"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          required
          value={form.price}
          onChange={(e) => onChange("price", e.target.value)}
          {...invalid("pd-price", errors.price)}
        />
      </Field>
      <Field id="pd-original-price" label="Original Price" error={errors.originalPrice}>
        <Input
          id="pd-original-price"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder="None"
          value={form.originalPrice}
          onChange={(e) => onChange("originalPrice", e.target.value)}
          {...invalid("pd-original-price", errors.originalPrice)}
        />
      </Field>
      <div className="space-y-3">
        <div className="flex items-center gap-2">
          <Switch id="pd-unlimited" checked={form.unlimitedStock} onCheckedChange={(v) => onChange("unlimitedStock", v)} />
          <Label htmlFor="pd-unlimited">Unlimited Stock</Label>
        </div>
        {!form.unlimitedStock && (
          <Field id="pd-stock" label="Stock" error={errors.stockQuantity}>
            <Input
              id="pd-stock"
              type="number"
              inputMode="numeric"
              step="1"
              min="0"
              value={form.stockQuantity}
              onChange={(e) => onChange("stockQuantity", e.target.value)}
              {...invalid("pd-stock", errors.stockQuantity)}
            />
          </Field>
        )}
      </div>
      <Field id="pd-weight" label="Weight (g)" error={errors.weightGrams}>
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
          {...invalid("pd-weight", errors.weightGrams)}
        />
      </Field>
      <Field id="pd-category" label="Category" error={errors.category}>
        <NativeSelect
          id="pd-category"
          wrapperClassName="w-full"
          value={form.category}
          onChange={(e) => onChange("category", e.target.value)}
          {...invalid("pd-category", errors.category)}
        >
          <NativeSelectOption value="">Choose a category</NativeSelectOption>
          {categories.map((name) => (
            <NativeSelectOption key={name} value={name}>
              {name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </Field>
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
