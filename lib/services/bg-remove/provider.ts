import { BG_REMOVAL_PROVIDER, removeBackground, warmUpBackgroundRemoval, type BgRemovalOptions, type BgRemovalResult } from "@/lib/engines/ml/background-removal";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * The seam between the service and whatever removes backgrounds. Today one
 * provider: the ISNet model running in this process (lib/engines/ml/background-removal).
 * A hosted provider is another entry here, picked by BG_REMOVE_PROVIDER; the job
 * records the `provider` that actually ran.
 */
export type BgRemovalProvider = {
  name: string;
  removeBackground(input: Buffer, opts: BgRemovalOptions, signal?: AbortSignal): Promise<BgRemovalResult>;
  warmUp(): Promise<void>;
};

const providers: Record<string, BgRemovalProvider> = {
  [BG_REMOVAL_PROVIDER]: { name: BG_REMOVAL_PROVIDER, removeBackground, warmUp: () => warmUpBackgroundRemoval({ atServerStart: true }) },
};

export function bgRemovalProvider(): BgRemovalProvider {
  const wanted = parseEnv(z.object({ BG_REMOVE_PROVIDER: z.string().trim().default(BG_REMOVAL_PROVIDER) }), process.env, "background removal").BG_REMOVE_PROVIDER || BG_REMOVAL_PROVIDER;
  const provider = providers[wanted];
  if (!provider) throw new Error(`BG_REMOVE_PROVIDER=${wanted} is not a known provider (known: ${Object.keys(providers).join(", ")}).`);
  return provider;
}
