import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import * as agencyRoute from "@/app/v1/services/studio/agencies/[agencyId]/route";
import * as jobsRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import * as jobRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/route";
import * as filesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/route";
import * as fileRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/[fileId]/route";
import * as subjectsRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import * as uploadsRoute from "@/app/v1/uploads/route";
import { config } from "@/lib/foundation/config";
import { META_SUFFIX } from "@/lib/domain/storage/types";
import { call, testAccount } from "../http";

// Rename and delete for agencies and jobs (delete refuses while they hold
// photos or subjects unless ?cascade=true), delete for job photos, and the
// duplicate-upload warning (same bytes, by SHA-256).

const base = "/v1/services/studio/agencies";

const photo = (r: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 120, b: 40 } } })
    .png()
    .toBuffer();

function form(...files: Array<[Buffer, string]>) {
  const f = new FormData();
  for (const [bytes, name] of files) f.append("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  return f;
}

async function world() {
  const acc = await testAccount();
  const agency = await call(agenciesRoute, "POST", base, { token: acc.token, body: { name: "Lincoln Elementary", agency_type: "school" } });
  expect(agency.status).toBe(201);
  const a = String(agency.json.id);
  const job = await call(jobsRoute, "POST", `${base}/${a}/jobs`, { token: acc.token, params: { agencyId: a }, body: { name: "Spring portraits", icp_type: "school" } });
  expect(job.status).toBe(201);
  return { ...acc, a, j: String(job.json.id) };
}

/** Every stored file under DATA_DIR/files (local storage). */
function storedKeys(dir = path.join(config().dataDir, "files")): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!p.endsWith(META_SUFFIX)) out.add(path.relative(path.join(config().dataDir, "files"), p));
    }
  };
  walk(dir);
  return out;
}

describe("rename agencies and jobs", () => {
  it("PATCH renames an agency and a job; empty or unknown fields are a 400 naming the field", async () => {
    const { token, a, j } = await world();
    const renamed = await call(agencyRoute, "PATCH", `${base}/${a}`, { token, params: { agencyId: a }, body: { name: "  Lincoln Elementary School " } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ id: Number(a), name: "Lincoln Elementary School", agency_type: "school", job_count: 1 });
    const job = await call(jobRoute, "PATCH", `${base}/${a}/jobs/${j}`, { token, params: { agencyId: a, jobId: j }, body: { name: "Spring retakes", status: "active" } });
    expect(job.status, job.text).toBe(200);
    expect(job.json).toMatchObject({ id: Number(j), name: "Spring retakes", status: "active", icp_type: "school", file_count: 0 });
    const list = await call(jobsRoute, "GET", `${base}/${a}/jobs`, { token, params: { agencyId: a } });
    expect(list.json.jobs).toMatchObject([{ name: "Spring retakes" }]);

    const empty = await call(agencyRoute, "PATCH", `${base}/${a}`, { token, params: { agencyId: a }, body: { name: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.json.details.fields).toMatchObject([{ field: "name" }]);
    const nothing = await call(jobRoute, "PATCH", `${base}/${a}/jobs/${j}`, { token, params: { agencyId: a, jobId: j }, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.json.message).toContain("at least one field");
    const badType = await call(agencyRoute, "PATCH", `${base}/${a}`, { token, params: { agencyId: a }, body: { agency_type: "club" } });
    expect(badType.status).toBe(400);
    expect(badType.json.details.fields).toMatchObject([{ field: "agency_type" }]);
  });
});

describe("delete agencies, jobs and photos", () => {
  it("a job with photos is refused with 409 and the count; ?cascade=true deletes it, its photos and their stored files", async () => {
    const { token, a, j } = await world();
    const before = storedKeys();
    const up = await call(filesRoute, "POST", `${base}/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, rawBody: form([await photo(10), "a.png"], [await photo(20), "b.png"]) });
    expect(up.status, up.text).toBe(201);
    const added = [...storedKeys()].filter((k) => !before.has(k));
    expect(added).toHaveLength(4); // two photos, two thumbnails

    const refused = await call(jobRoute, "DELETE", `${base}/${a}/jobs/${j}`, { token, params: { agencyId: a, jobId: j } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: "JOB_NOT_EMPTY", details: { photos: 2 } });
    expect(refused.json.message).toContain("2 photos");
    expect(refused.json.message).toContain("cascade=true");

    // One photo deleted: its files go; the job still refuses for the other.
    const fileId = String(up.json.files[0].id);
    expect((await call(fileRoute, "DELETE", `${base}/${a}/jobs/${j}/files/${fileId}`, { token, params: { agencyId: a, jobId: j, fileId } })).status).toBe(204);
    expect([...storedKeys()].filter((k) => !before.has(k))).toHaveLength(2);
    expect((await call(jobRoute, "DELETE", `${base}/${a}/jobs/${j}`, { token, params: { agencyId: a, jobId: j } })).json.message).toContain("1 photo.");

    const bad = await call(jobRoute, "DELETE", `${base}/${a}/jobs/${j}?cascade=yes`, { token, params: { agencyId: a, jobId: j } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields).toMatchObject([{ field: "cascade" }]);

    const gone = await call(jobRoute, "DELETE", `${base}/${a}/jobs/${j}?cascade=true`, { token, params: { agencyId: a, jobId: j } });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json).toEqual({ deleted: { photos: 1 } });
    expect([...storedKeys()].filter((k) => !before.has(k))).toHaveLength(0);
    expect((await call(jobRoute, "GET", `${base}/${a}/jobs/${j}`, { token, params: { agencyId: a, jobId: j } })).status).toBe(404);
  });

  it("an empty job is deleted at once; an agency with subjects or photos is refused, then deleted with ?cascade=true", async () => {
    const { token, a, j } = await world();
    const empty = await call(jobRoute, "DELETE", `${base}/${a}/jobs/${j}`, { token, params: { agencyId: a, jobId: j } });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ deleted: { photos: 0 } });

    // An agency with only an empty job goes without cascade.
    const other = await call(agenciesRoute, "POST", base, { token, body: { name: "Empty club", agency_type: "sports" } });
    const o = String(other.json.id);
    await call(jobsRoute, "POST", `${base}/${o}/jobs`, { token, params: { agencyId: o }, body: { name: "Nothing yet", icp_type: "sports" } });
    const plain = await call(agencyRoute, "DELETE", `${base}/${o}`, { token, params: { agencyId: o } });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.json).toEqual({ deleted: { subjects: 0, jobs: 1, photos: 0 } });

    await call(subjectsRoute, "POST", `${base}/${a}/subjects`, { token, params: { agencyId: a }, body: { student_id: "S1", name: "Ada" } });
    const job2 = await call(jobsRoute, "POST", `${base}/${a}/jobs`, { token, params: { agencyId: a }, body: { name: "Retakes", icp_type: "school" } });
    const j2 = String(job2.json.id);
    await call(filesRoute, "POST", `${base}/${a}/jobs/${j2}/files`, { token, params: { agencyId: a, jobId: j2 }, rawBody: form([await photo(30), "c.png"]) });
    const refused = await call(agencyRoute, "DELETE", `${base}/${a}`, { token, params: { agencyId: a } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: "AGENCY_NOT_EMPTY", details: { subjects: 1, jobs: 1, photos: 1 } });
    expect(refused.json.message).toBe("The agency still holds 1 subject and 1 photo in 1 job. Delete them first, or send DELETE ?cascade=true to delete the agency with everything in it.");
    expect((await call(agencyRoute, "GET", `${base}/${a}`, { token, params: { agencyId: a } })).status).toBe(200);

    const gone = await call(agencyRoute, "DELETE", `${base}/${a}?cascade=true`, { token, params: { agencyId: a } });
    expect(gone.status).toBe(200);
    expect(gone.json).toEqual({ deleted: { subjects: 1, jobs: 1, photos: 1 } });
    expect((await call(agencyRoute, "GET", `${base}/${a}`, { token, params: { agencyId: a } })).status).toBe(404);
    expect((await call(agenciesRoute, "GET", base, { token })).json.agencies).toEqual([]);
  });

  it("another account's agency, job and photo: PATCH and DELETE (with cascade too) are the 404 of an unknown id, and change nothing", async () => {
    const A = await world();
    const B = await testAccount();
    const up = await call(filesRoute, "POST", `${base}/${A.a}/jobs/${A.j}/files`, { token: A.token, params: { agencyId: A.a, jobId: A.j }, rawBody: form([await photo(40), "x.png"]) });
    const fileId = String(up.json.files[0].id);
    const tries = [
      () => call(agencyRoute, "PATCH", `${base}/${A.a}`, { token: B.token, params: { agencyId: A.a }, body: { name: "Mine now" } }),
      () => call(agencyRoute, "DELETE", `${base}/${A.a}`, { token: B.token, params: { agencyId: A.a } }),
      () => call(agencyRoute, "DELETE", `${base}/${A.a}?cascade=true`, { token: B.token, params: { agencyId: A.a } }),
      () => call(jobRoute, "PATCH", `${base}/${A.a}/jobs/${A.j}`, { token: B.token, params: { agencyId: A.a, jobId: A.j }, body: { name: "Mine now" } }),
      () => call(jobRoute, "DELETE", `${base}/${A.a}/jobs/${A.j}?cascade=true`, { token: B.token, params: { agencyId: A.a, jobId: A.j } }),
      () => call(fileRoute, "DELETE", `${base}/${A.a}/jobs/${A.j}/files/${fileId}`, { token: B.token, params: { agencyId: A.a, jobId: A.j, fileId } }),
    ];
    for (const t of tries) {
      const res = await t();
      expect(res.status, res.text).toBe(404);
      expect(res.json.error).toBe("NOT_FOUND");
    }
    const agency = await call(agencyRoute, "GET", `${base}/${A.a}`, { token: A.token, params: { agencyId: A.a } });
    expect(agency.json).toMatchObject({ name: "Lincoln Elementary", job_count: 1 });
    const job = await call(jobRoute, "GET", `${base}/${A.a}/jobs/${A.j}`, { token: A.token, params: { agencyId: A.a, jobId: A.j } });
    expect(job.json).toMatchObject({ name: "Spring portraits", file_count: 1 });
  });
});

describe("duplicate uploads", () => {
  it("the same bytes twice in a job are added but reported: duplicate_of, sha256 and a warning in words", async () => {
    const { token, a, j } = await world();
    const bytes = await photo(50);
    const first = await call(filesRoute, "POST", `${base}/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, rawBody: form([bytes, "IMG_0001.png"], [await photo(60), "IMG_0002.png"]) });
    expect(first.status).toBe(201);
    expect(first.json.warnings).toEqual([]);
    expect(first.json.files[0]).toMatchObject({ duplicate_of: null, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const again = await call(filesRoute, "POST", `${base}/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, rawBody: form([bytes, "copy of IMG_0001.png"]) });
    expect(again.status).toBe(201);
    expect(again.json.files[0]).toMatchObject({ filename: "copy of IMG_0001.png", sha256: first.json.files[0].sha256, duplicate_of: { id: first.json.files[0].id, filename: "IMG_0001.png" } });
    expect(again.json.warnings).toEqual([
      {
        code: "DUPLICATE_FILE",
        file_id: again.json.files[0].id,
        duplicate_of: first.json.files[0].id,
        message: `copy of IMG_0001.png has exactly the same bytes as IMG_0001.png (file ${first.json.files[0].id}), already in this job. It was added; delete one if it was not meant twice.`,
      },
    ]);

    // Twice in one request, and by URL: reported too.
    const pair = await call(filesRoute, "POST", `${base}/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, rawBody: form([await photo(70), "p.png"], [await photo(70), "p again.png"]) });
    expect(pair.json.warnings).toMatchObject([{ file_id: pair.json.files[1].id, duplicate_of: pair.json.files[0].id }]);
    const uploadForm = new FormData();
    uploadForm.append("file", new File([new Uint8Array(bytes)], "same.png", { type: "image/png" }));
    const upload = await call(uploadsRoute, "POST", "/v1/uploads", { token, rawBody: uploadForm });
    const byUrl = await call(filesRoute, "POST", `${base}/${a}/jobs/${j}/files`, { token, params: { agencyId: a, jobId: j }, body: { url: upload.json.url, filename: "by-url.png" } });
    expect(byUrl.status, byUrl.text).toBe(201);
    expect(byUrl.json.warnings).toMatchObject([{ code: "DUPLICATE_FILE", duplicate_of: first.json.files[0].id }]);

    // Another job of the same account is not a duplicate; another account neither.
    const other = await call(jobsRoute, "POST", `${base}/${a}/jobs`, { token, params: { agencyId: a }, body: { name: "Fall", icp_type: "school" } });
    const oj = String(other.json.id);
    const elsewhere = await call(filesRoute, "POST", `${base}/${a}/jobs/${oj}/files`, { token, params: { agencyId: a, jobId: oj }, rawBody: form([bytes, "IMG_0001.png"]) });
    expect(elsewhere.json.warnings).toEqual([]);
    const B = await world();
    const theirs = await call(filesRoute, "POST", `${base}/${B.a}/jobs/${B.j}/files`, { token: B.token, params: { agencyId: B.a, jobId: B.j }, rawBody: form([bytes, "IMG_0001.png"]) });
    expect(theirs.json.warnings).toEqual([]);
    expect(theirs.json.files[0].duplicate_of).toBeNull();
  });
});
