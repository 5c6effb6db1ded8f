import type { FormEvent } from "react";
import { cleanSearchTerm, DEFAULT_SORT, type ShopFilters } from "~/lib/shop-url";
import { isShopSort } from "~/lib/shop-sorts";

function readForm(form: HTMLFormElement, categories: string[]): ShopFilters {
  const data = new FormData(form);
  const category = String(data.get("category") ?? "all");
  const sort = String(data.get("sort") ?? DEFAULT_SORT);
  return {
    search: cleanSearchTerm(String(data.get("search") ?? "")),
    category: categories.includes(category) ? category : null,
    sort: isShopSort(sort) ? sort : DEFAULT_SORT,
  };
}

/**
 * What /shop's filter form does with JavaScript: a change of category or sort applies at once, a
 * submit is written to the URL directly. On the form itself or on an element around it (the
 * kept form, components/kept.tsx): both read the form the event came from.
 */
export function shopFilterEvents(categories: string[], onChange: (filters: ShopFilters) => void) {
  const formOf = (e: FormEvent) => {
    const target = e.target as HTMLFormElement | HTMLInputElement | HTMLSelectElement;
    return target instanceof HTMLFormElement ? target : target.form;
  };
  return {
    onSubmit: (e: FormEvent) => {
      const form = formOf(e);
      if (!form) return;
      e.preventDefault();
      onChange(readForm(form, categories));
    },
    // `input`, not React's onChange: React derives that from the element it draws, and the kept
    // form's selects are not React's; browsers fire `input` on a select's change too.
    onInput: (e: FormEvent) => {
      const form = formOf(e);
      if (form && (e.target as HTMLElement).tagName === "SELECT") onChange(readForm(form, categories));
    },
  };
}
