/**
 * Where a background-removal job's time goes, for its log line ("background removal",
 * `steps_ms`) and bench/bg-http-bench.ts: the job's own steps (a step replayed from its
 * stored result takes ~0 ms) and, inside remove-background, the engine's (engine-pool.ts,
 * pipeline.ts) and the service's own reads and writes (cut-out-job.ts).
 */
export function stepTimer(initial: Record<string, number> = {}) {
  const ms: Record<string, number> = { ...initial };
  const time = async <T>(name: string, work: Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await work;
    } finally {
      ms[name] = Math.round(performance.now() - t);
    }
  };
  return Object.assign(time, { ms });
}

const sum = (t: Record<string, number>, ...keys: string[]) => keys.reduce((s, k) => s + (t[k] ?? 0), 0);

/** One flat record, in the order the work happens; `other` is remove-background's time that no step accounts for (hand-offs). */
export function jobSteps(job: Record<string, number>, engine: Record<string, number>): Record<string, number> {
  const parts = {
    load_job: job.loadJob ?? 0,
    fetch_source: job.fetchSource ?? 0,
    source_read: engine.sourceRead ?? 0,
    budget_wait: engine.budgetWait ?? 0,
    pool_wait: engine.poolWait ?? 0,
    model_load: engine.modelLoad ?? 0,
    decode: engine.decode ?? 0,
    salient_model: sum(engine, "modelInput", "inference", "refine"), // "refine" already holds refineInference
    person_model: sum(engine, "personLoad", "person"),
    matte: engine.matte ?? 0,
    full_res_matte: sum(engine, "upsample", "edges"),
    encode: engine.encode ?? 0,
    store: engine.store ?? 0,
    complete_job: sum(job, "deleteSourceCopy", "completeJob"),
  };
  const removeBackground = job.removeBackground ?? 0;
  const inside = parts.source_read + (engine.total ?? 0) + parts.store;
  return { ...parts, other: Math.max(0, removeBackground - inside), total: sum(job, "loadJob", "fetchSource", "removeBackground", "deleteSourceCopy", "completeJob") };
}
