// Contract conformance (print-service-api.md 2.8, 2.9, 2.10, 4.5, 4.7) for what the
// other studio tests do not pin: optional fields sent empty, path ids, and the list
// envelope's exact shape on the roster and job-file lists.
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { PDFDocument } from "pdf-lib";
import * as agencies from "@/app/v1/services/studio/agencies/route";
import * as agency from "@/app/v1/services/studio/agencies/[agencyId]/route";
import * as jobs from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import * as job from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/route";
import * as files from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/route";
import * as subjects from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as preview from "@/app/v1/services/studio/qr/preview/route";
import * as served from "@/app/files/[...key]/route";
import { getDb } from "@/lib/foundation/db/client";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { call, testAccount } from "../http";

const base = "/v1/services/studio/agencies";

async function pdfPages(url: string): Promise<number> {
  const u = new URL(url);
  const res = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  expect(res.status).toBe(200);
  return (await PDFDocument.load(Buffer.from(await res.arrayBuffer()))).getPageCount();
}

describe("Bulk QR optional fields (contract 4.5)", () => {
  it("takes an empty or blank school_name as no school name, as for every optional text", async () => {
    const { token, account } = await testAccount({ tokens: 10 });
    const subjectsList = [{ student_id: "S1", name: "Ada", class_name: "" }];
    for (const school_name of ["", "   "]) {
      const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: "J", school_name, subjects: subjectsList } });
      expect(res.status, JSON.stringify(school_name)).toBe(200);
      expect(res.json).toMatchObject({ job_id: "J", total_subjects: 1, tokens_deducted: 1, wallet_transaction_id: expect.stringMatching(/^wtx_/) });
      expect(await pdfPages(res.json.pdf_url)).toBe(1);
      const pre = await call(preview, "POST", "/v1/services/studio/qr/preview", { token, body: { job_id: "J", school_name, subjects: subjectsList } });
      expect(pre.status).toBe(200);
    }
    expect(await getBalance(await getDb(), account.id)).toBe(8);
    // Over the limit is still refused, naming the field.
    const long = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: "J", school_name: "x".repeat(201), subjects: subjectsList } });
    expect(long.status).toBe(400);
    expect(long.json.details.fields.map((f: { field: string }) => f.field)).toEqual(["school_name"]);
  });
});

describe("studio path ids (contract 2.9: integer ids)", () => {
  it("answers ids that are not plain decimal integers with a 400 naming the parameter, never another record", async () => {
    const { token } = await testAccount();
    // Create enough agencies that 0x10 (16), 1e1 (10) and 0b11 (3) would all name a real one.
    const ids: number[] = [];
    for (let i = 0; i < 16; i++) ids.push((await call(agencies, "POST", base, { token, body: { name: `Agency ${i}`, agency_type: "school" } })).json.id);
    expect(ids).toContain(16);
    for (const raw of ["0x10", "1e1", "0b11", "1.0", " 3", "+3", "3 ", "-1", "0", "2147483648", "abc"]) {
      const res = await call(agency, "GET", `${base}/${encodeURIComponent(raw)}`, { token, params: { agencyId: raw } });
      expect(res.status, JSON.stringify(raw)).toBe(400);
      expect(res.json.details).toMatchObject({ in: "params", fields: [{ field: "agencyId" }] });
    }
    const ok = await call(agency, "GET", `${base}/16`, { token, params: { agencyId: "16" } });
    expect(ok.status).toBe(200);
    expect(ok.json.id).toBe(16);
    const j = await call(jobs, "POST", `${base}/16/jobs`, { token, params: { agencyId: "16" }, body: { name: "J", icp_type: "school" } });
    const viaHex = await call(job, "GET", "/", { token, params: { agencyId: "16", jobId: `0x${j.json.id.toString(16)}` } });
    expect(viaHex.status).toBe(400);
    expect(viaHex.json.details.fields[0].field).toBe("jobId");
  });
});

describe("studio list envelopes (contract 2.10)", () => {
  it("pages the roster and a job's files in the contract's envelope", async () => {
    const { token } = await testAccount();
    const a = (await call(agencies, "POST", base, { token, body: { name: "A", agency_type: "school" } })).json;
    const p = { agencyId: String(a.id) };
    for (const s of ["S1", "S2", "S3"]) await call(subjects, "POST", "/", { token, params: p, body: { student_id: s, name: s } });
    const j = (await call(jobs, "POST", "/", { token, params: p, body: { name: "J", icp_type: "school" } })).json;
    const pj = { agencyId: String(a.id), jobId: String(j.id) };
    const jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: "white" } }).jpeg().toBuffer();
    for (let i = 0; i < 2; i++) {
      const form = new FormData();
      form.append("file", new File([new Uint8Array(jpeg)], `p${i}.jpg`, { type: "image/jpeg" }));
      expect((await call(files, "POST", "/", { token, params: pj, rawBody: form })).status).toBe(201);
    }
    const lists = [
      [await call(subjects, "GET", `${base}/${a.id}/subjects?limit=2&sort=student_id`, { token, params: p }), `${base}/${a.id}/subjects`, 2, true],
      [await call(files, "GET", `${base}/${a.id}/jobs/${j.id}/files?limit=1`, { token, params: pj }), `${base}/${a.id}/jobs/${j.id}/files`, 1, true],
      [await call(files, "GET", `${base}/${a.id}/jobs/${j.id}/files?page=9`, { token, params: pj }), `${base}/${a.id}/jobs/${j.id}/files`, 0, false],
    ] as const;
    for (const [res, path, count, hasNext] of lists) {
      expect(res.status).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual(["data", "links", "message", "meta"]);
      expect(res.json.data).toHaveLength(count);
      expect(Object.keys(res.json.links).sort()).toEqual(["first", "last", "next", "prev"]);
      expect(new URL(res.json.links.first).pathname).toBe(path);
      expect(res.json.links.next === null).toBe(!hasNext);
      expect(res.json.meta.path).toBe(`http://localhost:3000${path}`);
      expect(Number.isInteger(res.json.meta.per_page)).toBe(true);
      expect(typeof res.json.message).toBe("string");
    }
    // The links keep the caller's sort.
    expect(new URL(lists[0][0].json.links.next).searchParams.get("sort")).toBe("student_id");
  });
});
