"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { parentApi, useParentSession } from "@/lib/client/parent-session";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { faceStartCrop, type Crop } from "@/lib/services/orders/crop";
import { CropEditor } from "./crop-editor";
import { BackgroundPicker } from "./background-picker";
import { BackgroundPreview } from "./background-preview";
import { PrintWarnings } from "./print-warnings";
import { PackagePrints, type PackagePrint } from "./package-prints";
import { formatMoney } from "./format";

type Sheet = ApiResponse<"/v1/parent/price-sheet", "get">;
type Photo = ApiResponse<"/v1/parent/favourites", "get">["data"][number];
/** `frame`: Face Crop's framing of the photo (null: no face; undefined: not known yet). `moved`: the parent has moved or zoomed the crop. */
type Line = { key: string; photo: Photo; choice: string; quantity: number; yearbook_pose: boolean; crop: Crop | null; background_id: string | null; frame?: Crop | null; moved: boolean };

const input = "w-full rounded-md border border-slate-300 px-3 py-2 text-base";

/**
 * The parent's cart, phone first: the child's favourites, each with what to buy
 * from the job's price sheet; shipping, e-mail and promo code; then the studio's
 * Stripe page. Prices shown here are the sheet's; the server computes the total.
 */
export function ParentCart() {
  const { session, ready } = useParentSession();
  const token = session?.token;
  const api = parentApi(token);
  const sheet = useQuery({ queryKey: ["parent", "sheet", token], enabled: Boolean(token), queryFn: async () => unwrap(await api.GET("/v1/parent/price-sheet")) });
  const favourites = useQuery({ queryKey: ["parent", "favourites", "cart", token], enabled: Boolean(token), queryFn: async () => unwrap(await api.GET("/v1/parent/favourites", { params: { query: { limit: "100" } } })) });
  const [lines, setLines] = useState<Line[]>([]);
  const [email, setEmail] = useState("");
  const [shippingId, setShippingId] = useState("");
  const [promo, setPromo] = useState("");
  const [address, setAddress] = useState({ name: "", line1: "", city: "", postal_code: "", country: "US" });
  const [idempotencyKey] = useState(newIdempotencyKey);
  const pay = useMutation({
    mutationFn: async (s: Sheet) => {
      const shipping = s.shipping.find((o) => o.id === shippingId);
      return unwrap(
        await api.POST("/v1/parent/checkout", {
          headers: { "idempotency-key": idempotencyKey },
          body: {
            email,
            shipping_option_id: shippingId,
            ...(shipping?.type === "home" ? { address } : {}),
            ...(promo.trim() ? { promo_code: promo.trim() } : {}),
            lines: lines.map((l) => {
              const [kind, id] = l.choice.split(":") as ["item" | "package", string];
              const item = kind === "item" ? s.items.find((i) => i.id === id) : undefined;
              return { photo_id: l.photo.id, quantity: l.quantity, yearbook_pose: l.yearbook_pose, ...(kind === "item" ? { item_id: id } : { package_id: id }), ...(item?.product && l.crop ? { crop: l.crop } : {}), ...(l.background_id && allowsBackground(l.choice) ? { background_id: l.background_id } : {}) };
            }),
          },
        }),
      );
    },
    onSuccess: (res) => window.location.assign(res.checkout_url),
  });

  if (!ready) return null;
  if (!token) {
    return (
      <p className="p-4">
        Your gallery session has ended. <Link href="/g" className="text-sky-700 underline">Enter your code again</Link>.
      </p>
    );
  }
  if (sheet.isPending || favourites.isPending) return <p role="status" className="p-4 text-slate-600">Loading…</p>;
  if (sheet.error || !sheet.data) return <p className="p-4 text-slate-700">Nothing is for sale in this gallery yet.</p>;
  const s = sheet.data;
  const money = (n: number) => formatMoney(n, s.currency);
  const choices = [...s.items.map((i) => ({ value: `item:${i.id}`, label: `${i.name} · ${money(i.price)}`, price: i.price })), ...s.packages.map((p) => ({ value: `package:${p.id}`, label: `${p.name} · ${money(p.price)}`, price: p.price }))];
  const priceOf = (choice: string) => choices.find((c) => c.value === choice)?.price ?? 0;
  const subtotal = lines.reduce((n, l) => n + priceOf(l.choice) * l.quantity, 0);
  const shipping = s.shipping.find((o) => o.id === shippingId);
  /** A print's size, for a choice that is a print item (packages and digital files have no crop). */
  const sizeOf = (choice: string) => (choice.startsWith("item:") ? (s.items.find((i) => `item:${i.id}` === choice)?.product ?? null) : null);
  /** A package's prints with their sizes (its digital files print nothing): production frames them, the cart shows how. */
  const packagePrints = (choice: string): PackagePrint[] => {
    const [kind, id] = choice.split(":");
    const parts = kind === "package" ? (s.packages.find((p) => p.id === id)?.items ?? []) : [];
    return parts.flatMap((part) => {
      const item = s.items.find((i) => i.id === part.item_id);
      return item?.product ? [{ name: item.name, quantity: part.quantity, size: item.product }] : [];
    });
  };
  /** The checkout takes a background only for a print that allows one (alone, or in the package). */
  const allowsBackground = (choice: string) => {
    const [kind, id] = choice.split(":");
    const itemIds = kind === "item" ? [id] : (s.packages.find((p) => p.id === id)?.items.map((i) => i.item_id) ?? []);
    return s.items.some((i) => itemIds.includes(i.id) && i.allow_backgrounds);
  };
  /** The crop a print starts with: from the face when the photo's framing is known, else the largest centred box. */
  const cropFor = (photo: Photo, choice: string, frame?: Crop | null) => {
    const size = sizeOf(choice);
    return size ? faceStartCrop(photo, size, frame ?? null) : null;
  };
  const add = (photo: Photo) => {
    const choice = choices[0]?.value ?? "";
    const key = newIdempotencyKey();
    setLines([...lines, { key, photo, choice, quantity: 1, yearbook_pose: false, crop: cropFor(photo, choice), background_id: null, moved: false }]);
    // The face is found once per photo on the server and kept; until it answers the box is centred.
    void api.GET("/v1/parent/photos/{photoId}/face", { params: { path: { photoId: photo.id } } }).then(({ data }) => {
      const frame = data?.face?.frame ?? null;
      setLines((current) => current.map((l) => (l.key === key ? { ...l, frame, crop: l.moved ? l.crop : cropFor(l.photo, l.choice, frame) } : l)));
    });
  };
  const update = (key: string, patch: Partial<Line>) => setLines((current) => current.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const canPay = lines.length > 0 && email.includes("@") && shipping && (shipping.type === "school" || (address.name && address.line1 && address.city && address.postal_code));

  return (
    <div className="mx-auto max-w-lg space-y-6 pb-24">
      <header className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Your order</h1>
        <Link href="/g" className="text-sm text-sky-700 underline">
          Back to the photos
        </Link>
      </header>
      <section aria-label="Favourites">
        <h2 className="mb-2 font-medium">Your favourites</h2>
        {favourites.data?.data.length ? (
          <ul className="grid grid-cols-3 gap-2">
            {favourites.data.data.map((photo) => (
              <li key={photo.id} className="relative">
                {/* eslint-disable-next-line @next/next/no-img-element -- a signed, watermarked preview */}
                <img src={photo.preview_url} alt="Favourite photo" className="aspect-square w-full rounded object-cover" />
                <button type="button" onClick={() => add(photo)} className="absolute bottom-1 right-1 rounded-full bg-sky-700 px-3 py-1 text-sm text-white shadow">
                  Add
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">Mark photos with ♡ in the gallery, then choose prints here.</p>
        )}
      </section>
      <section aria-label="Cart" className="space-y-3">
        <h2 className="font-medium">Cart</h2>
        {lines.length === 0 ? <p className="text-sm text-slate-600">Your cart is empty.</p> : null}
        {lines.map((l, n) => (
          <div key={l.key} className="flex gap-3 rounded-lg border border-slate-200 p-2">
            {/* eslint-disable-next-line @next/next/no-img-element -- a signed, watermarked preview */}
            <img src={l.photo.preview_url} alt="" className="h-20 w-20 flex-none rounded object-cover" />
            <div className="min-w-0 flex-1 space-y-2">
              <select aria-label="What to buy" className={input} value={l.choice} onChange={(e) => update(l.key, { choice: e.target.value, crop: cropFor(l.photo, e.target.value, l.frame), moved: false })}>
                {choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
              <div className="flex items-center gap-2">
                <label className="flex items-center gap-1 text-sm">
                  Qty
                  <input aria-label="Quantity" type="number" min={1} max={100} className="w-16 rounded border border-slate-300 px-2 py-1" value={l.quantity} onChange={(e) => update(l.key, { quantity: Math.max(1, Number(e.target.value) || 1) })} />
                </label>
                <label className="flex items-center gap-1 text-sm">
                  <input type="checkbox" checked={l.yearbook_pose} onChange={(e) => update(l.key, { yearbook_pose: e.target.checked })} />
                  Yearbook pose
                </label>
                <button type="button" className="ml-auto text-sm text-red-700" onClick={() => setLines(lines.filter((x) => x.key !== l.key))}>
                  Remove
                </button>
              </div>
              {allowsBackground(l.choice) && s.backgrounds.length > 0 ? (
                <BackgroundPicker backgrounds={s.backgrounds} chosen={l.background_id} onChange={(background_id) => update(l.key, { background_id })} />
              ) : null}
              {l.background_id && allowsBackground(l.choice) ? <BackgroundPreview key={`${l.photo.id}:${l.background_id}`} token={token} photoId={l.photo.id} backgroundId={l.background_id} name={s.backgrounds.find((b) => b.id === l.background_id)?.name ?? "chosen"} /> : null}
              {l.crop && sizeOf(l.choice) ? <CropEditor photo={l.photo} size={sizeOf(l.choice)!} crop={l.crop} onChange={(crop) => update(l.key, { crop, moved: true })} label={`Crop of line ${n + 1}`} /> : null}
              <PackagePrints photo={l.photo} prints={packagePrints(l.choice)} frame={l.frame} />
              {sizeOf(l.choice) || packagePrints(l.choice).length ? <PrintWarnings token={token} photoId={l.photo.id} choice={l.choice} crop={sizeOf(l.choice) ? l.crop : null} backgroundId={l.background_id && allowsBackground(l.choice) ? l.background_id : null} /> : null}
            </div>
          </div>
        ))}
      </section>
      <section aria-label="Delivery and payment" className="space-y-3">
        <label className="block text-sm">
          E-mail for the receipt
          <input className={input} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <fieldset className="space-y-2">
          <legend className="text-sm">Delivery</legend>
          {s.shipping.map((o) => (
            <label key={o.id} className="flex items-center gap-2 rounded border border-slate-200 p-2">
              <input type="radio" name="shipping" checked={shippingId === o.id} onChange={() => setShippingId(o.id)} />
              <span className="flex-1">{o.name}</span>
              <span className="text-sm text-slate-600">{o.type === "home" ? money(o.price ?? 0) : `Free · by ${o.batch_date}`}</span>
            </label>
          ))}
        </fieldset>
        {shipping?.type === "home" ? (
          <div className="grid gap-2">
            {(["name", "line1", "city", "postal_code", "country"] as const).map((f) => (
              <label key={f} className="block text-sm">
                {{ name: "Name", line1: "Street address", city: "City", postal_code: "Postal code", country: "Country (2 letters)" }[f]}
                <input className={input} value={address[f]} onChange={(e) => setAddress({ ...address, [f]: e.target.value })} />
              </label>
            ))}
          </div>
        ) : null}
        <label className="block text-sm">
          Promo code
          <input className={input} value={promo} onChange={(e) => setPromo(e.target.value)} autoCapitalize="characters" />
        </label>
      </section>
      <div className="fixed inset-x-0 bottom-0 border-t border-slate-200 bg-white p-3">
        <div className="mx-auto flex max-w-lg items-center gap-3">
          <p className="flex-1 text-sm">
            {money(subtotal)} {s.tax_rate_bps ? "+ tax" : ""} {shipping?.type === "home" ? `+ ${money(shipping.price ?? 0)} shipping` : ""}
          </p>
          <button type="button" disabled={!canPay || pay.isPending} onClick={() => pay.mutate(s)} className="rounded-lg bg-sky-700 px-5 py-3 font-medium text-white disabled:opacity-50">
            {pay.isPending ? "Opening payment…" : "Pay"}
          </button>
        </div>
        {pay.error ? (
          <p role="alert" className="mx-auto mt-2 max-w-lg text-sm text-red-700">
            {pay.error.message}
          </p>
        ) : null}
      </div>
    </div>
  );
}
