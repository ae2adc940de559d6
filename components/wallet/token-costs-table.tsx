import { BG_REMOVE_COST } from "@/lib/services/bg-remove/values";
import { FACE_CROP_COST, FACE_CROP_ENHANCE_COST } from "@/lib/services/face-crop/pricing";
import { FIX_PRICES } from "@/lib/services/fixes/pricing";
import { MATCH_PRICE_PER_FILE } from "@/lib/services/matching/limits";

/**
 * Contract 2.1's price list. Operations this service does not offer yet are listed
 * with their contract price and marked, so nobody plans on them by mistake.
 */
type CostRow = { service: string; unit: string; cost: string; note?: string };

const COSTS: CostRow[] = [
  { service: "Background Removal", unit: "per image", cost: `${BG_REMOVE_COST} tokens` },
  { service: "Preflight: DPI score", unit: "per file", cost: "Free" },
  { service: "Preflight: full check", unit: "per check", cost: "No tokens", note: "Counts against your plan's monthly quota: Free 100, Premium 5,000." },
  { service: "Bulk QR", unit: "per subject", cost: "1 token" },
  { service: "AI fix job: raster", unit: "per job", cost: `${FIX_PRICES.raster} tokens` },
  { service: "AI fix job: PDF bleed only", unit: "per job", cost: `${FIX_PRICES.pdf_bleed} tokens` },
  { service: "AI fix job: PDF full prepress", unit: "per job", cost: `${FIX_PRICES.pdf_prepress} tokens` },
  { service: "Face Crop", unit: "per image", cost: `${FACE_CROP_COST} tokens`, note: `${FACE_CROP_ENHANCE_COST} tokens with enhance. Photos without a face are refunded.` },
  { service: "AI Face Matching", unit: "per photo", cost: `${MATCH_PRICE_PER_FILE} tokens`, note: "Photos that cannot be read are refunded. Building the roster's references is free." },
  { service: "Status polling, agency and job pickers", unit: "", cost: "Free" },
];

export function TokenCostsTable() {
  return (
    <div className="-mx-5 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Token cost of each operation</caption>
        <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2 font-medium">Operation</th>
            <th scope="col" className="px-5 py-2 font-medium">Billed</th>
            <th scope="col" className="px-5 py-2 text-right font-medium">Cost</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {COSTS.map((row) => (
            <tr key={row.service} className="align-top">
              <th scope="row" className="px-5 py-3 font-medium text-slate-900">
                {row.service}
                {row.note ? <p className="mt-0.5 text-xs font-normal text-slate-500">{row.note}</p> : null}
              </th>
              <td className="whitespace-nowrap px-5 py-3 text-slate-600">{row.unit || "—"}</td>
              <td className={`whitespace-nowrap px-5 py-3 text-right font-medium ${row.cost.endsWith("token") || row.cost.endsWith("tokens") ? "text-slate-900" : "text-emerald-700"}`}>
                {row.cost}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
