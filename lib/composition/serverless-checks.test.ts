import { describe, expect, it } from "vitest";
import { serverlessProblems, vercelOrigin } from "./serverless-checks";

const complete = {
  VERCEL: "1",
  DATABASE_URL: "postgres://u:p@db.example.com/app",
  S3_BUCKET: "studio-files",
  INNGEST_EVENT_KEY: "evt",
  INNGEST_SIGNING_KEY: "signkey-prod-123",
  AUTH_SECRET: "x".repeat(40),
};

describe("serverless checks", () => {
  it("ask nothing of a normal server", () => {
    expect(serverlessProblems({})).toEqual([]);
  });

  it("on Vercel name every embedded default that cannot work there", () => {
    const problems = serverlessProblems({ VERCEL: "1" });
    expect(problems.map((p) => p.split(":")[0])).toEqual(["DATABASE_URL", "S3_BUCKET (and S3_* credentials)", "INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY", "AUTH_SECRET (32+ characters)"]);
  });

  it("on Vercel accept a complete configuration, and name only what is missing", () => {
    expect(serverlessProblems(complete)).toEqual([]);
    expect(serverlessProblems({ ...complete, S3_BUCKET: undefined })).toHaveLength(1);
  });

  it("use the preview's own URL as the public origin, the branch URL first", () => {
    expect(vercelOrigin({})).toBeUndefined();
    expect(vercelOrigin({ VERCEL_URL: "studio-abc123.vercel.app" })).toBe("https://studio-abc123.vercel.app");
    expect(vercelOrigin({ VERCEL_URL: "studio-abc123.vercel.app", VERCEL_BRANCH_URL: "studio-git-feature.vercel.app" })).toBe("https://studio-git-feature.vercel.app");
  });
});
