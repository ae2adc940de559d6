import { describe, expect, it } from "vitest";
import sharp from "sharp";
import * as agencies from "@/app/v1/services/studio/agencies/route";
import * as agency from "@/app/v1/services/studio/agencies/[agencyId]/route";
import * as jobs from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import * as job from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/route";
import * as files from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/route";
import * as file from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/[fileId]/route";
import * as subjects from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import * as subject from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import * as importRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/import/route";
import * as uploads from "@/app/v1/uploads/route";
import * as served from "@/app/files/[...key]/route";
import { getDb } from "@/lib/foundation/db/client";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { call, testAccount } from "../http";

const base = "/v1/services/studio/agencies";

async function makeAgency(token: string, name = "Lincoln Elementary", agency_type = "school") {
  const res = await call(agencies, "POST", base, { token, body: { name, agency_type } });
  expect(res.status).toBe(201);
  return res.json as { id: number; name: string; agency_type: string };
}

async function makeJob(token: string, agencyId: number, body: Record<string, unknown> = { name: "Spring portraits", icp_type: "school" }) {
  const res = await call(jobs, "POST", `${base}/${agencyId}/jobs`, { token, body, params: { agencyId: String(agencyId) } });
  expect(res.status).toBe(201);
  return res.json as { id: number; name: string; status: string; icp_type: string };
}

async function photo(width: number, height: number, format: "jpeg" | "png" = "jpeg") {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })[format]().toBuffer();
}

function multipart(parts: Array<{ bytes: Buffer; name: string; type: string }>, field = "file") {
  const f = new FormData();
  for (const p of parts) f.append(field, new File([new Uint8Array(p.bytes)], p.name, { type: p.type }));
  return f;
}

async function importCsv(token: string, agencyId: number, csv: string, query = "") {
  return call(importRoute, "POST", `${base}/${agencyId}/subjects/import${query}`, { token, rawBody: csv, headers: { "content-type": "text/csv" }, params: { agencyId: String(agencyId) } });
}

async function fetchServed(url: string) {
  const u = new URL(url);
  const key = u.pathname.replace(/^\/files\//, "").split("/");
  return served.GET(new Request(u), { params: Promise.resolve({ key }) });
}

describe("agencies and jobs (contract 4.7)", () => {
  it("creates and lists agencies with integer ids, scoped to the account", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token, "Lincoln Elementary", "school");
    const b = await makeAgency(token, "Riverside FC", "sports");
    expect(Number.isInteger(a.id)).toBe(true);
    // Face matching starts off: a person turns it on, confirming consent (test/api/face-matching.test.ts).
    expect(a).toEqual({ id: a.id, name: "Lincoln Elementary", agency_type: "school", face_matching_enabled: false, face_matching_consent: null, learn_from_confirmed_matches: true });
    const list = await call(agencies, "GET", base, { token });
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ agencies: [a, b] });

    const other = await testAccount();
    expect((await call(agencies, "GET", base, { token: other.token })).json).toEqual({ agencies: [] });
    const detail = await call(agency, "GET", `${base}/${a.id}`, { token, params: { agencyId: String(a.id) } });
    expect(detail.json).toEqual({ ...a, subject_count: 0, job_count: 0 });
  });

  it("validates agency_type, icp_type and status, naming the field", async () => {
    const { token } = await testAccount();
    const bad = await call(agencies, "POST", base, { token, body: { name: "X", agency_type: "university" } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields[0].field).toBe("agency_type");
    const blank = await call(agencies, "POST", base, { token, body: { name: "  ", agency_type: "school" } });
    expect(blank.json.details.fields[0].field).toBe("name");
    const unknown = await call(agencies, "POST", base, { token, body: { name: "X", agency_type: "school", colour: "red" } });
    expect(unknown.json.details.fields[0].field).toBe("colour");

    const a = await makeAgency(token);
    const params = { agencyId: String(a.id) };
    for (const [body, field] of [
      [{ name: "J", icp_type: "wedding" }, "icp_type"],
      [{ name: "J", icp_type: "school", status: "flying" }, "status"],
      [{ icp_type: "school" }, "name"],
    ] as const) {
      const res = await call(jobs, "POST", `${base}/${a.id}/jobs`, { token, body, params });
      expect(res.status).toBe(400);
      expect(res.json.details.fields[0].field).toBe(field);
    }
  });

  it("creates jobs as draft by default and lists them per agency", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const j1 = await makeJob(token, a.id);
    expect(j1).toEqual({ id: j1.id, name: "Spring portraits", status: "draft", icp_type: "school" });
    const j2 = await makeJob(token, a.id, { name: "Retakes", icp_type: "school", status: "active" });
    const list = await call(jobs, "GET", `${base}/${a.id}/jobs`, { token, params: { agencyId: String(a.id) } });
    expect(list.json).toEqual({ jobs: [j2, j1] });
    const detail = await call(job, "GET", `${base}/${a.id}/jobs/${j1.id}`, { token, params: { agencyId: String(a.id), jobId: String(j1.id) } });
    expect(detail.json).toMatchObject({ ...j1, agency_id: a.id, file_count: 0 });
  });

  it("answers 404 for another account's agency or job, and for a job under the wrong agency", async () => {
    const owner = await testAccount();
    const a = await makeAgency(owner.token);
    const other = await makeAgency(owner.token, "Other school");
    const j = await makeJob(owner.token, a.id);
    const stranger = await testAccount();
    const p = { agencyId: String(a.id) };
    const pj = { agencyId: String(a.id), jobId: String(j.id) };
    const checks = [
      await call(agency, "GET", `${base}/${a.id}`, { token: stranger.token, params: p }),
      await call(jobs, "GET", `${base}/${a.id}/jobs`, { token: stranger.token, params: p }),
      await call(jobs, "POST", `${base}/${a.id}/jobs`, { token: stranger.token, params: p, body: { name: "Sneaky", icp_type: "school" } }),
      await call(job, "GET", `${base}/${a.id}/jobs/${j.id}`, { token: stranger.token, params: pj }),
      await call(job, "GET", `${base}/${other.id}/jobs/${j.id}`, { token: owner.token, params: { agencyId: String(other.id), jobId: String(j.id) } }),
      await call(agency, "GET", `${base}/2147483647`, { token: owner.token, params: { agencyId: "2147483647" } }),
    ];
    for (const res of checks) {
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("NOT_FOUND");
    }
    const huge = await call(agency, "GET", `${base}/99999999999`, { token: owner.token, params: { agencyId: "99999999999" } });
    expect(huge.status).toBe(400);
    expect(huge.json.details).toMatchObject({ in: "params", fields: [{ field: "agencyId" }] });
    expect((await call(jobs, "GET", `${base}/${a.id}/jobs`, { token: owner.token, params: p })).json.jobs).toHaveLength(1);
  });

  it("is free", async () => {
    const { token, account } = await testAccount({ tokens: 3 });
    const a = await makeAgency(token);
    await makeJob(token, a.id);
    expect(await getBalance(await getDb(), account.id)).toBe(3);
  });
});

describe("subjects (the roster)", () => {
  it("creates, lists (sorted, searched, paginated), updates and deletes subjects", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const p = { agencyId: String(a.id) };
    const names = [
      ["S3", "Zoë Ørsted-Nguyễn", "5B"],
      ["S1", "山田 太郎", "5A"],
      ["S2", "Ada Lovelace", null],
    ] as const;
    for (const [student_id, name, class_name] of names) {
      const res = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body: { student_id, name, class_name } });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ id: expect.stringMatching(/^sub_/), agency_id: a.id, student_id, name, class_name, reference_photo_url: null });
    }
    const byName = await call(subjects, "GET", `${base}/${a.id}/subjects?sort=name`, { token, params: p });
    expect(byName.json.data.map((s: { student_id: string }) => s.student_id)).toEqual(["S2", "S3", "S1"]);
    expect(byName.json.meta).toMatchObject({ total: 3, per_page: 20 });
    const byIdDesc = await call(subjects, "GET", `${base}/${a.id}/subjects?sort=-student_id&limit=2`, { token, params: p });
    expect(byIdDesc.json.data.map((s: { student_id: string }) => s.student_id)).toEqual(["S3", "S2"]);
    expect(byIdDesc.json.links.next).toContain("page=2");
    const search = await call(subjects, "GET", `${base}/${a.id}/subjects?q=nguy`, { token, params: p });
    expect(search.json.data).toHaveLength(1);
    const badSort = await call(subjects, "GET", `${base}/${a.id}/subjects?sort=shoe_size`, { token, params: p });
    expect(badSort.status).toBe(400);
    expect(badSort.json.details.fields[0].field).toBe("sort");

    const target = byName.json.data[0];
    const sp = { agencyId: String(a.id), subjectId: target.id };
    const updated = await call(subject, "PATCH", `${base}/${a.id}/subjects/${target.id}`, { token, params: sp, body: { name: "Ada King", class_name: "6C" } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ id: target.id, student_id: "S2", name: "Ada King", class_name: "6C" });
    const cleared = await call(subject, "PATCH", `${base}/${a.id}/subjects/${target.id}`, { token, params: sp, body: { class_name: "" } });
    expect(cleared.json.class_name).toBeNull();
    const empty = await call(subject, "PATCH", `${base}/${a.id}/subjects/${target.id}`, { token, params: sp, body: {} });
    expect(empty.status).toBe(400);
    const clash = await call(subject, "PATCH", `${base}/${a.id}/subjects/${target.id}`, { token, params: sp, body: { student_id: "S1" } });
    expect(clash.status).toBe(409);
    expect(clash.json).toMatchObject({ error: "DUPLICATE_STUDENT_ID", details: { field: "student_id" } });
    const dup = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body: { student_id: "S1", name: "Again" } });
    expect(dup.status).toBe(409);

    expect((await call(subject, "DELETE", `${base}/${a.id}/subjects/${target.id}`, { token, params: sp })).status).toBe(204);
    expect((await call(subject, "GET", `${base}/${a.id}/subjects/${target.id}`, { token, params: sp })).status).toBe(404);
    expect((await call(agency, "GET", `${base}/${a.id}`, { token, params: p })).json.subject_count).toBe(2);
  });

  it("refuses missing names, control characters and private reference photo URLs, naming the field", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const p = { agencyId: String(a.id) };
    const cases = [
      [{ student_id: "S1" }, "name"],
      [{ student_id: "S1", name: "Line\nbreak" }, "name"],
      [{ student_id: "", name: "A" }, "student_id"],
      [{ student_id: "S1", name: "A", reference_photo_url: "ftp://example.com/a.jpg" }, "reference_photo_url"],
    ] as const;
    for (const [body, field] of cases) {
      const res = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.details.fields[0].field).toBe(field);
    }
    const privateUrl = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body: { student_id: "S1", name: "A", reference_photo_url: "http://169.254.169.254/latest/meta-data/" } });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.json).toMatchObject({ error: "URL_NOT_ALLOWED", details: { field: "reference_photo_url" } });
  });

  it("keeps a parent e-mail per subject: trimmed and lower-cased, cleared with \"\", refused naming parent_email when it is no address", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const p = { agencyId: String(a.id) };
    const made = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body: { student_id: "S1", name: "Ann", parent_email: "  Parent.Archer@Example.COM " } });
    expect(made.status, made.text).toBe(201);
    expect(made.json.parent_email).toBe("parent.archer@example.com");
    const none = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body: { student_id: "S2", name: "Ben" } });
    expect(none.json.parent_email).toBeNull();
    for (const bad of ["not-an-address", "two@@example.com", "a b@example.com", "x@", 42]) {
      const res = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: p, body: { student_id: "S3", name: "Cat", parent_email: bad } });
      expect(res.status, String(bad)).toBe(400);
      expect(res.json.details.fields[0].field).toBe("parent_email");
    }
    const sp = { agencyId: String(a.id), subjectId: made.json.id };
    const changed = await call(subject, "PATCH", `${base}/${a.id}/subjects/${made.json.id}`, { token, params: sp, body: { parent_email: "mum@example.org" } });
    expect(changed.json.parent_email).toBe("mum@example.org");
    const badPatch = await call(subject, "PATCH", `${base}/${a.id}/subjects/${made.json.id}`, { token, params: sp, body: { parent_email: "mum at example" } });
    expect(badPatch.status).toBe(400);
    expect(badPatch.json.details.fields[0].field).toBe("parent_email");
    const cleared = await call(subject, "PATCH", `${base}/${a.id}/subjects/${made.json.id}`, { token, params: sp, body: { parent_email: "" } });
    expect(cleared.json.parent_email).toBeNull();
  });

  it("keeps an uploaded reference photo readable: own upload URLs are re-signed on every read", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const up = await call(uploads, "POST", "/v1/uploads", { token, rawBody: multipart([{ bytes: await photo(40, 50), name: "face.jpg", type: "image/jpeg" }]) });
    const res = await call(subjects, "POST", `${base}/${a.id}/subjects`, { token, params: { agencyId: String(a.id) }, body: { student_id: "S1", name: "A", reference_photo_url: up.json.url } });
    expect(res.status).toBe(201);
    expect(res.json.reference_photo_url).toMatch(/\/files\/uploads\//);
    expect((await fetchServed(res.json.reference_photo_url)).status).toBe(200);
  });

  it("answers 404 for another account's subjects, and never lists them", async () => {
    const owner = await testAccount();
    const a = await makeAgency(owner.token);
    const p = { agencyId: String(a.id) };
    const s = (await call(subjects, "POST", `${base}/${a.id}/subjects`, { token: owner.token, params: p, body: { student_id: "S1", name: "Mine" } })).json;
    const stranger = await testAccount();
    const sp = { agencyId: String(a.id), subjectId: s.id };
    for (const res of [
      await call(subjects, "GET", `${base}/${a.id}/subjects`, { token: stranger.token, params: p }),
      await call(subjects, "POST", `${base}/${a.id}/subjects`, { token: stranger.token, params: p, body: { student_id: "S9", name: "X" } }),
      await call(subject, "GET", `${base}/${a.id}/subjects/${s.id}`, { token: stranger.token, params: sp }),
      await call(subject, "PATCH", `${base}/${a.id}/subjects/${s.id}`, { token: stranger.token, params: sp, body: { name: "Stolen" } }),
      await call(subject, "DELETE", `${base}/${a.id}/subjects/${s.id}`, { token: stranger.token, params: sp }),
      await importCsv(stranger.token, a.id, "student_id,name\nS5,X\n"),
    ]) {
      expect(res.status).toBe(404);
    }
    // The stranger's own agency cannot reach it either.
    const theirs = await makeAgency(stranger.token);
    const via = await call(subject, "GET", `${base}/${theirs.id}/subjects/${s.id}`, { token: stranger.token, params: { agencyId: String(theirs.id), subjectId: s.id } });
    expect(via.status).toBe(404);
    const still = await call(subject, "GET", `${base}/${a.id}/subjects/${s.id}`, { token: owner.token, params: sp });
    expect(still.json.name).toBe("Mine");
  });
});

describe("CSV roster import", () => {
  it("imports a roster with Unicode names, and updates on demand", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const p = { agencyId: String(a.id) };
    const csv = "student_id,name,class_name,reference_photo_url\nS1,Zoë Ørsted-Nguyễn,5B,\nS2,山田 太郎,5A,\nS3,\"Lovelace, Ada\",,\n";
    const res = await importCsv(token, a.id, csv);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ created: 3, updated: 0, total: 3 });
    const list = await call(subjects, "GET", `${base}/${a.id}/subjects?sort=student_id`, { token, params: p });
    expect(list.json.data.map((s: { name: string }) => s.name)).toEqual(["Zoë Ørsted-Nguyễn", "山田 太郎", "Lovelace, Ada"]);
    expect(list.json.data[2].class_name).toBeNull();

    const again = await importCsv(token, a.id, "student_id,name\nS1,Zoe Orsted\nS4,New Kid\n");
    expect(again.status).toBe(400);
    expect(again.json.details.errors).toEqual([{ line: 2, field: "student_id", message: expect.stringContaining("already on the roster") }]);
    const upsert = await importCsv(token, a.id, "student_id,name\nS1,Zoe Orsted\nS4,New Kid\n", "?on_conflict=update");
    expect(upsert.json).toEqual({ created: 1, updated: 1, total: 2 });
    const after = await call(subjects, "GET", `${base}/${a.id}/subjects?sort=student_id`, { token, params: p });
    expect(after.json.data.map((s: { name: string }) => s.name)).toEqual(["Zoe Orsted", "山田 太郎", "Lovelace, Ada", "New Kid"]);
  });

  it("imports a school's export as it comes: First Name, Last Name, Student ID, Grade, Teacher", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const csv = "First Name,Last Name,Student ID,Grade,Teacher\r\nAnn,Archer,1001,4,Ms. Jameson\r\nMary Ann,Van der Berg,1002,K,Mr. Stephens\r\n";
    const res = await importCsv(token, a.id, csv);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ created: 2, updated: 0, total: 2 });
    const list = await call(subjects, "GET", `${base}/${a.id}/subjects?sort=student_id`, { token, params: { agencyId: String(a.id) } });
    expect(list.json.data.map((s: any) => [s.student_id, s.name, s.grade, s.teacher])).toEqual([
      ["1001", "Ann Archer", "4", "Ms. Jameson"],
      ["1002", "Van der Berg, Mary Ann", "K", "Mr. Stephens"],
    ]);
    const unknown = await importCsv(token, a.id, "Student ID,Name,Bus Route\n1003,Cat Crane,7\n");
    expect(unknown.status).toBe(400);
    expect(unknown.json.details.errors).toEqual([{ line: 1, field: "Bus Route", message: expect.stringContaining("student_id (or Student ID") }]);
    expect(unknown.json.message).toContain("First Name and Last Name");
  });

  it("reads a parent e-mail column (Parent Email, Guardian Email, …), refuses a bad address by line, and keeps addresses a file without the column does not name", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const p = { agencyId: String(a.id) };
    const res = await importCsv(token, a.id, "Student ID,Name,Parent Email\n1001,Ann Archer,Archer.Family@Example.com\n1002,Ben Brown,\n");
    expect(res.status, res.text).toBe(200);
    const emails = async () => (await call(subjects, "GET", `${base}/${a.id}/subjects?sort=student_id`, { token, params: p })).json.data.map((s: any) => s.parent_email);
    expect(await emails()).toEqual(["archer.family@example.com", null]);
    const guardian = await importCsv(token, a.id, "Student ID,Name,Guardian E-mail\n1002,Ben Brown,brown@example.net\n", "?on_conflict=update");
    expect(guardian.status, guardian.text).toBe(200);
    expect(await emails()).toEqual(["archer.family@example.com", "brown@example.net"]);
    // Re-importing names without the column leaves the addresses as they were.
    expect((await importCsv(token, a.id, "Student ID,Name\n1001,Ann Archer-Smith\n", "?on_conflict=update")).status).toBe(200);
    expect(await emails()).toEqual(["archer.family@example.com", "brown@example.net"]);
    const bad = await importCsv(token, a.id, "Student ID,Name,Parent Email\n1003,Cat Crane,cat@\n", "?on_conflict=update");
    expect(bad.status).toBe(400);
    expect(bad.json.details.errors).toEqual([{ line: 2, field: "parent_email", message: expect.stringContaining("e-mail address") }]);
    // A bare "Email" could be the pupil's own: it is not taken for the parent's.
    const bare = await importCsv(token, a.id, "Student ID,Name,Email\n1003,Cat Crane,cat@example.com\n");
    expect(bare.status).toBe(400);
    expect(bare.json.details.errors[0]).toMatchObject({ line: 1, field: "Email" });
  });

  it("reports every bad row by line number and imports nothing", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const csv = [
      "student_id,name,class_name,reference_photo_url",
      "S1,Good Row,5A,",
      "S2,,5A,", // line 3: missing name
      "S1,Duplicate,5A,", // line 4: duplicate of line 2
      '"S5","Quoted', // lines 5-6: a name with a line break
      'Name",5A,',
      "S6,Private photo,5A,http://10.0.0.1/x.jpg", // line 7
      "S7,Fine,5A,",
    ].join("\n");
    const res = await importCsv(token, a.id, csv);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("VALIDATION_ERROR");
    expect(res.json.details.in).toBe("csv");
    expect(res.json.details.errors.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual([
      [3, "name"],
      [4, "student_id"],
      [5, "name"],
      [7, "reference_photo_url"],
    ]);
    expect(res.json.message).toMatch(/^The CSV has 4 errors; nothing was imported\. First: line 3/);
    const list = await call(subjects, "GET", `${base}/${a.id}/subjects`, { token, params: { agencyId: String(a.id) } });
    expect(list.json.meta.total).toBe(0);
  });

  it("refuses a bad header, an empty file, and a body that is not CSV", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const header = await importCsv(token, a.id, "id,full_name\n1,A\n");
    expect(header.json.details.errors.every((e: { line: number }) => e.line === 1)).toBe(true);
    expect((await importCsv(token, a.id, "student_id,name\n")).json.details.errors[0]).toMatchObject({ line: 2, message: expect.stringContaining("no rows") });
    const json = await call(importRoute, "POST", `${base}/${a.id}/subjects/import`, { token, body: { csv: "x" }, params: { agencyId: String(a.id) } });
    expect(json.status).toBe(415);
    const viaForm = await call(importRoute, "POST", `${base}/${a.id}/subjects/import`, {
      token,
      rawBody: multipart([{ bytes: Buffer.from("student_id,name\nS1,From a file\n"), name: "roster.csv", type: "text/csv" }]),
      params: { agencyId: String(a.id) },
    });
    expect(viaForm.json).toEqual({ created: 1, updated: 0, total: 1 });
  });

  it("refuses a CSV over 5 MB with 413, importing nothing", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const row = "S0000001,A long enough name to fill the roster quickly,Class 1\n";
    const big = "student_id,name,class_name\n" + row.repeat(Math.ceil((5 * 1024 * 1024) / row.length) + 10);
    const res = await importCsv(token, a.id, big);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ error: "PAYLOAD_TOO_LARGE", details: { max_bytes: 5 * 1024 * 1024 } });
    const list = await call(subjects, "GET", `${base}/${a.id}/subjects`, { token, params: { agencyId: String(a.id) } });
    expect(list.json.data).toEqual([]);
  });
});

describe("job files", () => {
  it("uploads photos (several per request), records size and dimensions, and serves them and their thumbnails", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const j = await makeJob(token, a.id);
    const pj = { agencyId: String(a.id), jobId: String(j.id) };
    const res = await call(files, "POST", `${base}/${a.id}/jobs/${j.id}/files`, {
      token,
      params: pj,
      rawBody: multipart([
        { bytes: await photo(800, 600), name: "IMG_0001.jpg", type: "image/jpeg" },
        { bytes: await photo(300, 500, "png"), name: "dir/IMG_0002.png", type: "image/png" },
      ]),
    });
    expect(res.status).toBe(201);
    const [f1, f2] = res.json.files;
    expect(f1).toMatchObject({ id: expect.any(Number), job_id: j.id, filename: "IMG_0001.jpg", content_type: "image/jpeg", width: 800, height: 600, source_url: null });
    expect(f2).toMatchObject({ filename: "IMG_0002.png", content_type: "image/png", width: 300, height: 500 });
    const thumb = await fetchServed(f1.thumbnail_url);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 320, 240]);
    expect((await fetchServed(f2.url)).status).toBe(200);

    const list = await call(files, "GET", `${base}/${a.id}/jobs/${j.id}/files`, { token, params: pj });
    expect(list.json.data.map((f: { id: number }) => f.id)).toEqual([f2.id, f1.id]);
    expect(list.json.meta.total).toBe(2);
  });

  it("adds a photo by URL through the source fetcher (our own upload URL here)", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const j = await makeJob(token, a.id);
    const pj = { agencyId: String(a.id), jobId: String(j.id) };
    const up = await call(uploads, "POST", "/v1/uploads", { token, rawBody: multipart([{ bytes: await photo(120, 90), name: "x.jpg", type: "image/jpeg" }]) });
    const res = await call(files, "POST", `${base}/${a.id}/jobs/${j.id}/files`, { token, params: pj, body: { url: up.json.url, filename: "class-photo.jpg" } });
    expect(res.status).toBe(201);
    expect(res.json.files[0]).toMatchObject({ filename: "class-photo.jpg", width: 120, height: 90, source_url: up.json.url });
    const refused = await call(files, "POST", `${base}/${a.id}/jobs/${j.id}/files`, { token, params: pj, body: { url: "http://127.0.0.1:8080/x.jpg" } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: "URL_NOT_ALLOWED", details: { field: "url" } });
    const missing = await call(files, "POST", `${base}/${a.id}/jobs/${j.id}/files`, { token, params: pj, body: {} });
    expect(missing.json.details.fields[0].field).toBe("url");
  });

  it("refuses non-photos and damaged photos, storing nothing", async () => {
    const { token } = await testAccount();
    const a = await makeAgency(token);
    const j = await makeJob(token, a.id);
    const pj = { agencyId: String(a.id), jobId: String(j.id) };
    const pdf = await call(files, "POST", "/", { token, params: pj, rawBody: multipart([{ bytes: Buffer.from("%PDF-1.4\n%%EOF\n"), name: "a.jpg", type: "image/jpeg" }]) });
    expect(pdf.status).toBe(415);
    const good = await photo(50, 50);
    const truncated = Buffer.concat([good.subarray(0, 40), Buffer.alloc(200, 0x55)]);
    const broken = await call(files, "POST", "/", { token, params: pj, rawBody: multipart([{ bytes: good, name: "ok.jpg", type: "image/jpeg" }, { bytes: truncated, name: "bad.jpg", type: "image/jpeg" }]) });
    expect(broken.status).toBe(422);
    expect(broken.json).toMatchObject({ error: "UNREADABLE_IMAGE", details: { field: "file[1]" } });
    const none = await call(files, "POST", "/", { token, params: pj, rawBody: multipart([{ bytes: good, name: "ok.jpg", type: "image/jpeg" }], "photo") });
    expect(none.status).toBe(400);
    expect((await call(files, "GET", "/", { token, params: pj })).json.meta.total).toBe(0);
  });

  it("answers 404 for another account's job files, and deletes its own", async () => {
    const owner = await testAccount();
    const a = await makeAgency(owner.token);
    const j = await makeJob(owner.token, a.id);
    const pj = { agencyId: String(a.id), jobId: String(j.id) };
    const [f] = (await call(files, "POST", "/", { token: owner.token, params: pj, rawBody: multipart([{ bytes: await photo(64, 64), name: "a.jpg", type: "image/jpeg" }]) })).json.files;
    const pf = { ...pj, fileId: String(f.id) };
    const stranger = await testAccount();
    for (const res of [
      await call(files, "GET", "/", { token: stranger.token, params: pj }),
      await call(files, "POST", "/", { token: stranger.token, params: pj, rawBody: multipart([{ bytes: await photo(64, 64), name: "a.jpg", type: "image/jpeg" }]) }),
      await call(file, "GET", "/", { token: stranger.token, params: pf }),
      await call(file, "DELETE", "/", { token: stranger.token, params: pf }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await call(file, "GET", "/", { token: owner.token, params: pf })).json.id).toBe(f.id);
    expect((await call(file, "DELETE", "/", { token: owner.token, params: pf })).status).toBe(204);
    expect((await call(file, "GET", "/", { token: owner.token, params: pf })).status).toBe(404);
    expect((await fetchServed(f.url)).status).toBe(404);
  });
});
