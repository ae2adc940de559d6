/** Minor units as the currency writes them: 1999 usd is "$19.99", 500 jpy is "¥500". */
export function formatMoney(minor: number, currency: string): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}
