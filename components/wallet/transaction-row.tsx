import Link from "next/link";
import { formatDateTime, formatSignedTokens, formatTokens } from "./format";
import { operationLabel } from "./operation-label";
import { TransactionTypeBadge } from "./transaction-type-badge";
import type { WalletTransaction } from "./types";
import { workHref } from "./work-link";
import { ReceiptLink } from "./receipt-link";

/** Ledger operations paid by card: Stripe has a receipt or invoice page for them. */
const PAID_BY_CARD = new Set(["token_pack", "premium_allowance", "auto_top_up"]);

/** `receipts`: only the owner may open card receipts (GET .../receipt is theirs), so others are not offered the link. */
export function TransactionRow({ tx, receipts = true }: { tx: WalletTransaction; receipts?: boolean }) {
  const href = workHref(tx.operation, tx.reference);
  const amountClass = tx.amount > 0 ? "text-emerald-700" : tx.amount < 0 ? "text-red-700" : "text-slate-700";
  return (
    <tr className="align-top">
      <td className="whitespace-nowrap px-4 py-3 text-slate-600">
        <time dateTime={tx.created_at}>{formatDateTime(tx.created_at)}</time>
      </td>
      <td className="px-4 py-3">
        <TransactionTypeBadge type={tx.type} />
      </td>
      <td className="px-4 py-3 text-slate-900">{operationLabel(tx.operation, tx.type)}</td>
      <td className="px-4 py-3 text-slate-600" data-testid="ledger-spent-by">
        {tx.spent_by ? (tx.spent_by.type === "api_key" ? `API key: ${tx.spent_by.name}` : tx.spent_by.name) : <span className="text-slate-400">—</span>}
      </td>
      <td className="max-w-xs px-4 py-3 text-slate-600">
        {tx.reference && href ? (
          <Link href={href} className="break-all font-mono text-xs text-brand-700 hover:underline" data-testid="ledger-work-link">
            {tx.reference}
          </Link>
        ) : tx.reference ? (
          <div className="break-all font-mono text-xs text-slate-700">{tx.reference}</div>
        ) : null}
        {tx.note ? <div className="break-words">{tx.note}</div> : null}
        {receipts && tx.operation && PAID_BY_CARD.has(tx.operation) ? <ReceiptLink transactionId={tx.id} /> : null}
        {tx.refund_of ? <div className="text-xs text-slate-500">Refund of <span className="font-mono">{tx.refund_of}</span></div> : null}
        {!tx.reference && !tx.note && !tx.refund_of ? <span className="text-slate-400">—</span> : null}
      </td>
      <td className={`whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums ${amountClass}`}>{formatSignedTokens(tx.amount)}</td>
      <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums text-slate-700">{formatTokens(tx.balance_after)}</td>
    </tr>
  );
}
