"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { useActionKey } from "@/lib/client/idempotency-key";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { formatMoney, fromMinor, toMinor } from "./format";

type Sheet = ApiResponse<"/v1/price-sheets/{id}", "get">;
type ItemDraft = { id?: string; kind: "print" | "digital"; product_id: string; name: string; price: string; lab_cost: string };
type PackageDraft = { id?: string; name: string; price: string; items: Record<string, number> };
type ShippingDraft = { id?: string; type: "home" | "school"; name: string; price: string; batch_date: string };
const input = "w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

/** The studio's price sheets: pick one to edit its items, packages, tax and shipping (admins save; others read). */
export function PriceSheetsEditor({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const sheets = useQuery({ queryKey: ["price-sheets"], queryFn: async () => unwrap(await studioApi.GET("/v1/price-sheets", { params: { query: { limit: "100" } } })) });
  const [selected, setSelected] = useState<string>("");
  const [name, setName] = useState("");
  const [currency, setCurrency] = useState("usd");
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const key = useActionKey();
  const create = useMutation({
    mutationFn: () => key.run(async (k) => unwrap(await studioApi.POST("/v1/price-sheets", { body: { name, currency }, headers: { "idempotency-key": k } }))),
    onSuccess: (sheet) => {
      setName("");
      setSelected(sheet.id);
      void queryClient.invalidateQueries({ queryKey: ["price-sheets"] });
    },
  });
  const current = sheets.data?.data.find((s) => s.id === selected) ?? sheets.data?.data[0];
  return (
    <div className="space-y-6">
      <Card title="Sheets">
        {sheets.isPending ? (
          <ListSkeleton label="Loading price sheets" rows={2} />
        ) : sheets.error || !sheets.data ? (
          <QueryError title="Could not load the price sheets." error={sheets.error} onRetry={() => void sheets.refetch()} />
        ) : sheets.data.data.length === 0 ? (
          <EmptyState>No price sheet yet.</EmptyState>
        ) : (
          <div className="flex flex-wrap gap-2">
            {sheets.data.data.map((s) => (
              <Button
                key={s.id}
                type="button"
                variant={s.id === current?.id ? "primary" : "secondary"}
                onClick={() => {
                  setSelected(s.id);
                  setSavedAt(null);
                }}
              >
                {s.name}
              </Button>
            ))}
          </div>
        )}
        {canEdit ? (
          <form
            className="mt-4 flex flex-wrap items-end gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <Field id="new-sheet-name" label="New sheet" value={name} onChange={(e) => setName(e.target.value)} placeholder="Spring picture day" required />
            <Field id="new-sheet-currency" label="Currency" value={currency} onChange={(e) => setCurrency(e.target.value)} maxLength={3} className="w-20" />
            <Button type="submit" disabled={create.isPending || !name.trim()}>
              Create
            </Button>
          </form>
        ) : null}
        {create.error ? <QueryError title="The sheet was not created." error={create.error} /> : null}
      </Card>
      {current ? <SheetForm key={current.id + current.updated_at} sheet={current} canEdit={canEdit} savedAt={savedAt} onSaved={() => setSavedAt(new Date().toLocaleTimeString())} /> : null}
    </div>
  );
}

/** Remounted with each saved version of the sheet (its key), so the drafts start from what the server holds. */
function SheetForm({ sheet, canEdit, savedAt, onSaved }: { sheet: Sheet; canEdit: boolean; savedAt: string | null; onSaved: () => void }) {
  const queryClient = useQueryClient();
  const cur = sheet.currency;
  const products = useQuery({ queryKey: ["products", "for-sheets"], queryFn: async () => unwrap(await studioApi.GET("/v1/products", { params: { query: { limit: "100" } } })) });
  const [tax, setTax] = useState(String(sheet.tax_rate_bps / 100));
  const [items, setItems] = useState<ItemDraft[]>(() => sheet.items.map((i) => ({ id: i.id, kind: i.kind, product_id: i.product_id ?? "", name: i.name, price: fromMinor(i.price, cur), lab_cost: fromMinor(i.lab_cost, cur) })));
  const [packages, setPackages] = useState<PackageDraft[]>(() => sheet.packages.map((p) => ({ id: p.id, name: p.name, price: fromMinor(p.price, cur), items: Object.fromEntries(p.items.map((i) => [i.item_id, i.quantity])) })));
  const [shipping, setShipping] = useState<ShippingDraft[]>(() => sheet.shipping.map((s) => ({ id: s.id, type: s.type, name: s.name, price: fromMinor(s.price ?? 0, cur), batch_date: s.batch_date ?? "" })));
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        await studioApi.PATCH("/v1/price-sheets/{id}", {
          params: { path: { id: sheet.id } },
          body: {
            tax_rate_bps: Math.round(Number(tax || "0") * 100),
            items: items.map((i) => ({ ...(i.id ? { id: i.id } : {}), kind: i.kind, product_id: i.kind === "print" ? i.product_id || null : null, ...(i.name.trim() ? { name: i.name.trim() } : {}), price: toMinor(i.price, cur), lab_cost: toMinor(i.lab_cost, cur) })),
            packages: packages.map((p) => ({ ...(p.id ? { id: p.id } : {}), name: p.name, price: toMinor(p.price, cur), items: Object.entries(p.items).filter(([, q]) => q > 0).map(([item_id, quantity]) => ({ item_id, quantity })) })),
            shipping: shipping.map((s) => (s.type === "home" ? { ...(s.id ? { id: s.id } : {}), type: "home" as const, name: s.name, price: toMinor(s.price, cur) } : { ...(s.id ? { id: s.id } : {}), type: "school" as const, name: s.name, batch_date: s.batch_date })),
          },
        }),
      ),
    onSuccess: () => {
      onSaved();
      void queryClient.invalidateQueries({ queryKey: ["price-sheets"] });
    },
  });
  const set = <T,>(list: T[], update: (l: T[]) => void, n: number, patch: Partial<T>) => update(list.map((x, i) => (i === n ? { ...x, ...patch } : x)));
  const savedItems = sheet.items;
  return (
    <Card title={`${sheet.name} (${cur.toUpperCase()})`}>
      <fieldset disabled={!canEdit} className="space-y-6">
        <Field id="tax-rate" label="Tax rate (%)" type="number" step="0.01" min="0" max="100" value={tax} onChange={(e) => setTax(e.target.value)} className="w-32" />
        <section>
          <h3 className="mb-2 font-medium">Items</h3>
          <div className="space-y-2">
            {items.map((item, n) => {
              const product = sheet.items.find((i) => i.product_id === item.product_id)?.product ?? null;
              return (
                <div key={item.id ?? `new-${n}`} className="grid grid-cols-2 gap-2 rounded border border-slate-200 p-2 sm:grid-cols-[7rem_1fr_1fr_6rem_6rem_auto]">
                  <select aria-label="Kind" className={input} value={item.kind} onChange={(e) => set(items, setItems, n, { kind: e.target.value as ItemDraft["kind"] })}>
                    <option value="print">Print</option>
                    <option value="digital">Digital file</option>
                  </select>
                  {item.kind === "print" ? (
                    <select aria-label="Product" className={input} value={item.product_id} onChange={(e) => set(items, setItems, n, { product_id: e.target.value })}>
                      <option value="">Choose a product…</option>
                      {products.data?.data.map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.name} ({p.width_in}×{p.height_in} in)
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span className="self-center text-sm text-slate-500">Full-resolution download</span>
                  )}
                  <input aria-label="Name" className={input} value={item.name} placeholder="Name (default: the product's)" onChange={(e) => set(items, setItems, n, { name: e.target.value })} />
                  <input aria-label="Price" className={input} type="number" step="0.01" min="0" value={item.price} onChange={(e) => set(items, setItems, n, { price: e.target.value })} />
                  <input aria-label="Lab cost" className={input} type="number" step="0.01" min="0" value={item.lab_cost} onChange={(e) => set(items, setItems, n, { lab_cost: e.target.value })} />
                  <Button type="button" variant="secondary" onClick={() => setItems(items.filter((_, i) => i !== n))}>
                    Remove
                  </Button>
                  {product ? <p className="col-span-full text-xs text-slate-500">Bleed {product.bleed_mm} mm, at least {product.min_ppi} ppi</p> : null}
                </div>
              );
            })}
          </div>
          <Button type="button" variant="secondary" className="mt-2" onClick={() => setItems([...items, { kind: "print", product_id: "", name: "", price: "0", lab_cost: "0" }])}>
            Add item
          </Button>
        </section>
        <section>
          <h3 className="mb-2 font-medium">Packages</h3>
          <p className="mb-2 text-xs text-slate-500">A package holds saved items: save new items first, then put them in packages.</p>
          <div className="space-y-2">
            {packages.map((pkg, n) => (
              <div key={pkg.id ?? `new-${n}`} className="space-y-2 rounded border border-slate-200 p-2">
                <div className="grid grid-cols-[1fr_6rem_auto] gap-2">
                  <input aria-label="Package name" className={input} value={pkg.name} onChange={(e) => set(packages, setPackages, n, { name: e.target.value })} />
                  <input aria-label="Package price" className={input} type="number" step="0.01" min="0" value={pkg.price} onChange={(e) => set(packages, setPackages, n, { price: e.target.value })} />
                  <Button type="button" variant="secondary" onClick={() => setPackages(packages.filter((_, i) => i !== n))}>
                    Remove
                  </Button>
                </div>
                <div className="flex flex-wrap gap-3 text-sm">
                  {savedItems.map((i) => (
                    <label key={i.id} className="flex items-center gap-1">
                      <input
                        type="number"
                        min="0"
                        max="100"
                        className="w-14 rounded border border-slate-300 px-1"
                        value={pkg.items[i.id] ?? 0}
                        onChange={(e) => set(packages, setPackages, n, { items: { ...pkg.items, [i.id]: Number(e.target.value) } })}
                      />
                      × {i.name} ({formatMoney(i.price, cur)})
                    </label>
                  ))}
                </div>
              </div>
            ))}
          </div>
          <Button type="button" variant="secondary" className="mt-2" onClick={() => setPackages([...packages, { name: "Package", price: "0", items: {} }])}>
            Add package
          </Button>
        </section>
        <section>
          <h3 className="mb-2 font-medium">Shipping</h3>
          <div className="space-y-2">
            {shipping.map((s, n) => (
              <div key={s.id ?? `new-${n}`} className="grid grid-cols-2 gap-2 rounded border border-slate-200 p-2 sm:grid-cols-[8rem_1fr_9rem_auto]">
                <select aria-label="Shipping type" className={input} value={s.type} onChange={(e) => set(shipping, setShipping, n, { type: e.target.value as ShippingDraft["type"] })}>
                  <option value="home">To the home</option>
                  <option value="school">To the school</option>
                </select>
                <input aria-label="Shipping name" className={input} value={s.name} onChange={(e) => set(shipping, setShipping, n, { name: e.target.value })} />
                {s.type === "home" ? (
                  <input aria-label="Shipping price" className={input} type="number" step="0.01" min="0" value={s.price} onChange={(e) => set(shipping, setShipping, n, { price: e.target.value })} />
                ) : (
                  <input aria-label="Batch date" className={input} type="date" value={s.batch_date} onChange={(e) => set(shipping, setShipping, n, { batch_date: e.target.value })} />
                )}
                <Button type="button" variant="secondary" onClick={() => setShipping(shipping.filter((_, i) => i !== n))}>
                  Remove
                </Button>
              </div>
            ))}
          </div>
          <Button type="button" variant="secondary" className="mt-2" onClick={() => setShipping([...shipping, { type: "home", name: "To your home", price: "0", batch_date: "" }])}>
            Add shipping option
          </Button>
        </section>
        {canEdit ? (
          <div className="flex items-center gap-3">
            <Button type="button" disabled={save.isPending} onClick={() => save.mutate()}>
              {save.isPending ? "Saving…" : "Save sheet"}
            </Button>
            {savedAt ? (
              <span role="status" className="text-sm text-emerald-700">
                Saved at {savedAt}.
              </span>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-500">Only the studio&apos;s admins and owner change prices.</p>
        )}
        {save.error ? <QueryError title="The sheet was not saved." error={save.error} /> : null}
      </fieldset>
    </Card>
  );
}
