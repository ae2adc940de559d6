import { describe, expect, it } from "vitest";
import { ISSUE_CODES } from "@/lib/services/preflight/issue-codes";
import { PDF_CASES, RASTER_CASES, type ExpectedIssue, type FixtureCase } from "../fixtures/preflight/cases";
import { checkFile } from "../fixtures/preflight/api";
import { testAccount } from "../http";

type Issue = { code: string; severity: string; message: string; page?: number; box?: Record<string, unknown>; details: Record<string, unknown>; fixTypes: string[] };

function sameKind(issue: Issue, e: ExpectedIssue) {
  return issue.code === e.code && issue.severity === e.severity && (e.page === undefined || issue.page === e.page);
}

/** The report holds exactly the expected issues: each one found with its page and values, nothing else. */
function expectIssues(issues: Issue[], expected: ExpectedIssue[]) {
  for (const e of expected) {
    const found = issues.filter((i) => sameKind(i, e) && (!e.message || i.message.includes(e.message)));
    expect(found, `${e.code}/${e.severity}${e.page ? ` on page ${e.page}` : ""}${e.message ? ` with "${e.message}"` : ""} in ${JSON.stringify(issues.map((i) => [i.code, i.page, i.message]))}`).toHaveLength(e.count ?? 1);
    for (const issue of found) {
      if (e.details) expect(issue.details).toMatchObject(e.details);
      if (e.detailsText) expect(JSON.stringify(issue.details)).toContain(e.detailsText);
      if (e.box) expect(issue.box).toMatchObject(e.box);
      if (e.fixTypes) expect(issue.fixTypes).toEqual(e.fixTypes);
      expect(issue.message.length).toBeGreaterThan(20);
    }
  }
  expect(issues).toHaveLength(expected.reduce((n, e) => n + (e.count ?? 1), 0));
}

async function run(c: FixtureCase) {
  const { token } = await testAccount({ plan: "premium" });
  const res = await checkFile(token, await c.file(), c.request, `fixture: ${c.name}`);
  expect(res.status, res.text).toBe(201);
  expect(res.json.data.reportId).toMatch(/^rpt_/);
  expectIssues(res.json.data.issues, c.issues);
  expect(res.json.data.status).toBe(c.status);
}

describe("preflight fixtures: rasters (JPEG, PNG, TIFF incl. CMYK and 16-bit)", () => {
  it.each(RASTER_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => run(c), 60_000);
});

describe("preflight fixtures: PDFs", () => {
  it.each(PDF_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => run(c), 60_000);
});

describe("the fixture set", () => {
  it("has a file for every issue code (too_many_pages is proven in preflight-limits)", () => {
    const covered = new Set([...RASTER_CASES, ...PDF_CASES].flatMap((c) => c.issues.map((i) => i.code)));
    covered.add("too_many_pages");
    expect(Object.keys(ISSUE_CODES).filter((code) => !covered.has(code as never))).toEqual([]);
  });

  it("has clean counterparts for rasters and PDFs", () => {
    expect(RASTER_CASES.filter((c) => c.issues.length === 0).length).toBeGreaterThanOrEqual(4);
    expect(PDF_CASES.filter((c) => c.issues.length === 0).length).toBeGreaterThanOrEqual(2);
  });
});
