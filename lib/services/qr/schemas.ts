import { z } from "zod";
import { classNameText, lineText, nameText, optionalLineText, studentIdText, urlText } from "@/lib/services/agencies/schemas";
import { LAYOUTS, MAX_QR_SUBJECTS, PAGE_SIZES } from "./values";

/** Contract 8: 1 to 2,000 subjects per request. */

export const qrSubject = z.strictObject({ student_id: studentIdText, name: nameText, class_name: classNameText });

export const generateQrBody = z
  .strictObject({
    /** The caller's own reference; printed into every QR payload. */
    job_id: lineText(64),
    /** Optional like class_name: "" or blank means no school name (form clients send empty fields). */
    school_name: optionalLineText(200),
    layout: z.enum(Object.keys(LAYOUTS) as [keyof typeof LAYOUTS, ...Array<keyof typeof LAYOUTS>]).default("4up"),
    logo_url: z.union([urlText, z.null()]).optional(),
    /** Beyond the contract: `letter` (default) or `a4`. */
    page_size: z.enum(Object.keys(PAGE_SIZES) as [keyof typeof PAGE_SIZES, ...Array<keyof typeof PAGE_SIZES>]).default("letter"),
    /**
     * Beyond the contract: a studio job (agency job id) whose gallery access codes the
     * cards print (a "Gallery code" line and a second QR to the parent's gallery),
     * matched to the job's roster by student_id. Codes are reserved now and kept by publishing.
     */
    gallery_job_id: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: "A studio job whose gallery access codes the cards print (a code line and a second QR to the gallery), matched to its roster by student_id." }),
    subjects: z
      .array(qrSubject)
      .min(1, "Send at least 1 subject.")
      .max(MAX_QR_SUBJECTS, `At most ${MAX_QR_SUBJECTS} subjects per request.`),
  })
  .superRefine((body, ctx) => {
    // Every QR must name one subject: a repeated student_id would print two cards that scan the same.
    const first = new Map<string, number>();
    body.subjects.forEach((s, i) => {
      const seen = first.get(s.student_id);
      if (seen === undefined) first.set(s.student_id, i);
      else ctx.addIssue({ code: "custom", path: ["subjects", i, "student_id"], message: `Duplicate student_id ${JSON.stringify(s.student_id)}: also subjects.${seen}.` });
    });
  });
export type GenerateQrInput = z.output<typeof generateQrBody>;

/** POST /v1/services/studio/qr/generate -> 200 (generateQrCards). */
export const generateQrResponse = z.object({
  id: z.string(),
  job_id: z.string(),
  total_subjects: z.number().int(),
  pdf_url: z.string().meta({ description: "Signed URL of the PDF, valid 24 hours (handed out once)." }),
  expires_at: z.iso.datetime({ offset: true }),
  layout: z.string(),
  page_size: z.string(),
  pages: z.number().int(),
  tokens_deducted: z.number().int(),
  wallet_transaction_id: z.string(),
});
