import { formatDateTime } from "@/components/wallet/format";
import { RevokeApiKeyButton } from "./revoke-api-key-button";
import type { ApiKey } from "./types";

export function ApiKeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  return (
    <tr className="align-middle">
      <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
        {apiKey.name}
      </th>
      <td className="whitespace-nowrap px-4 py-3">
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{apiKey.prefix}…</code>
      </td>
      <td className="whitespace-nowrap px-4 py-3 text-slate-600">
        <time dateTime={apiKey.created_at}>{formatDateTime(apiKey.created_at)}</time>
      </td>
      <td className="whitespace-nowrap px-4 py-3 text-slate-600">
        {apiKey.last_used_at ? <time dateTime={apiKey.last_used_at}>{formatDateTime(apiKey.last_used_at)}</time> : <span className="text-slate-400">Never</span>}
      </td>
      <td className="px-4 py-3 text-right">
        <RevokeApiKeyButton apiKey={apiKey} onRevoked={onRevoked} />
      </td>
    </tr>
  );
}
