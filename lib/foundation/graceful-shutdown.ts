/**
 * Work to finish before the process exits on SIGTERM or SIGINT (a deploy, a
 * container stop, Ctrl+C): the embedded runner lets running jobs end and gives
 * the others back without counting an attempt, instead of leaving them to be
 * found abandoned after the restart.
 *
 * `next start` has its own listeners for these signals, which close the HTTP
 * server and call process.exit as soon as that is done, which would cut our work
 * short. So the first call takes over the listeners already registered, runs
 * every task, and then hands the signal to them (HTTP keeps serving meanwhile).
 * With no earlier listener, it exits itself with the conventional 128 + signal code.
 */
type Task = (signal: NodeJS.Signals) => Promise<void>;

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
const EXIT_CODES: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143 };

const state = globalThis as unknown as { __printStudioShutdownTasks?: Task[] };

export function onShutdown(task: Task): void {
  if (!state.__printStudioShutdownTasks) {
    state.__printStudioShutdownTasks = [];
    install(state.__printStudioShutdownTasks);
  }
  state.__printStudioShutdownTasks.push(task);
}

function install(tasks: Task[]) {
  let shuttingDown = false;
  for (const signal of SIGNALS) {
    const earlier = process.listeners(signal) as Array<(s: NodeJS.Signals) => void>;
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (shuttingDown) return; // shells send SIGINT twice on Ctrl+C
      shuttingDown = true;
      void (async () => {
        console.log(`[print-studio] ${signal}: finishing running work before exit`);
        await Promise.allSettled(tasks.map((t) => t(signal).catch((err) => console.error("[print-studio] shutdown task failed:", err))));
        if (earlier.length === 0) process.exit(EXIT_CODES[signal]);
        for (const listener of earlier) listener(signal);
      })();
    });
  }
}
