// A job for the graceful-shutdown test, shared by the test (which enqueues it)
// and its child process (which runs it): it works for `data.n` milliseconds,
// or until its signal aborts it, printing when it starts and ends.
import { defineJob } from "@/lib/domain/jobs/define-job";
import type { AnyJobDefinition } from "@/lib/domain/jobs/types";
import { testEvent } from "./runner-harness";

export const shutdownJob = defineJob({
  id: "t-shutdown",
  event: testEvent,
  retries: 2,
  timeoutMs: 120_000,
  handler: async ({ event, step, signal }) =>
    step.run("work", async () => {
      console.log(`STARTED ${event.data.n}`);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, event.data.n);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
      console.log(`FINISHED ${event.data.n}`);
      return event.data.n;
    }),
  onFailure: async () => {},
} as AnyJobDefinition) as AnyJobDefinition;
