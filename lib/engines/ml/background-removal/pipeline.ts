import sharp from "sharp";
import { decodeImage, type DecodedImage } from "./decode-image";
import { MODEL_SIZE, toModelInput, type IsnetModel } from "./isnet-model";
import {
  applyLevels,
  fillHoles,
  removeSmallIslands,
  resizeBilinear,
  solidifyInterior,
  subjectBox,
  luminance,
  type Matte,
} from "./matte-ops";
import { guidedUpsample } from "./guided-upsample";
import { isnetEdgeReach, keepIsnetEdge } from "./isnet-edge";
import { PERSON_MODEL_SIZE, type PersonModel } from "./person-model";
import { POSE_MODEL_SIZE, type Pose, type PoseModel } from "./pose-model";
import { armSegments, bodyPoints, POSE_KEYPOINT_MIN, POSE_PERSON_MIN, type ArmSegment, type BodyPoint } from "./pose-arms";
import { keepPerson, looksLikePortrait, PERSON_RULE, type Box, type PersonReport, type PersonRule } from "./person-matte";
import { lookInTiles } from "./person-tiles";
import { cutoutQuality, type CutoutQuality } from "./cutout-quality";
import { finishEdges } from "./finish-edges";
import type { PeopleMap } from "./count-people";
import { singleChannel } from "./single-channel";
import { subjectProfile, type SubjectProfile } from "./subject-profiles";
import type { BgRemovalOptions } from "./types";

/**
 * The models a cut-out uses. `person` is loaded on first need (only person and
 * portrait photos need it); null turns the person rule off (the engine as it was
 * before it, kept for the quality benchmark's side-by-side).
 */
export type EngineModels = {
  isnet: IsnetModel;
  person: (() => Promise<PersonModel>) | null;
  /** A person's matte goes to full size along the photo's own edges (default true; the benchmark measures both). */
  guidedPersonEdges?: boolean;
  /** The person rule's settings (default PERSON_RULE; the benchmark measures variants side by side). */
  personRule?: PersonRule;
  /** The pose model, loaded on the first photo with a doubtful piece for it to judge (rule.poseArmShare); absent: no pose cue. */
  pose?: (() => Promise<PoseModel>) | null;
};

/** `peopleMap`: the kept people's regions when the person rule ran, for counting their faces (count-people.ts). */
export type PipelineOutput = { png: Buffer; width: number; height: number; timingsMs: Record<string, number>; quality: CutoutQuality; peopleMap?: PeopleMap };

type Region = { left: number; top: number; width: number; height: number };

/** The closer second pass is worth it only when the subject leaves this much of the frame unused. */
const REFINE_MAX_AREA = 0.65;
const REFINE_MARGIN = 0.1;

/**
 * One cut-out, start to finish, with a loaded model. Runs inside an engine
 * worker thread (see worker.ts); the event loop of the server never runs it.
 */
export async function cutOut(models: EngineModels, input: Buffer, opts: BgRemovalOptions, maxPixels: number): Promise<PipelineOutput> {
  const model = models.isnet;
  const timingsMs: Record<string, number> = {};
  const started = performance.now();
  let last = started;
  const lap = (name: string) => {
    const now = performance.now();
    timingsMs[name] = Math.round(now - last);
    last = now;
  };

  const img = await decodeImage(input, maxPixels);
  lap("decode");
  const profile = subjectProfile(opts.subjectType, opts.highDetail);

  // Working resolution: the photo's aspect ratio, at most the model's size.
  const scale = Math.min(1, MODEL_SIZE / Math.max(img.width, img.height));
  const work = { width: Math.max(1, Math.round(img.width * scale)), height: Math.max(1, Math.round(img.height * scale)) };
  const whole = { left: 0, top: 0, width: img.width, height: img.height };

  const first = await predict(model, img, whole, work.width, work.height);
  timingsMs.modelInput = first.inputMs;
  timingsMs.inference = first.inferenceMs;
  if (model.lastRunCached) timingsMs.salientCached = 1;
  last = performance.now();
  const matte: Matte = { data: first.matte, width: work.width, height: work.height };

  if (profile.highDetail) {
    const refined = await refineAroundSubject(model, img, matte, scale);
    if (refined) {
      timingsMs.refineInference = refined.inferenceMs;
      lap("refine");
    }
  }

  let person = false;
  let report: PersonReport | null = null;
  // rule.isnetEdge / guidedNearChanges: the weight of the rule's own changes for the upsampling (isnet-edge.ts).
  let nearChanges: Float32Array | undefined;
  if (models.person && profile.personRule !== "off") {
    const personModel = await models.person();
    lap("personLoad"); // the first photo that needs it loads it; 0 after that
    const rule = models.personRule ?? PERSON_RULE;
    let mask = await personMask(personModel, img, work.width, work.height);
    if (profile.personRule === "always" && rule.subjectLook) mask = (await lookAtSubject(personModel, img, matte, mask, scale, rule)) ?? mask;
    if (profile.personRule === "always" || looksLikePortrait(matte, mask)) {
      // Small people: the model again on squares along ISNet's subject when much of it lies outside the mask.
      if (rule.tileLook > 0) mask = (await lookInTiles(matte, mask, (box) => personMaskIn(personModel, img, box, scale), rule)) ?? mask;
      const found: PersonReport = { people: 0, doubtful: [] };
      const closer = rule.sureFill > 0 ? await closerLook(personModel, img, mask, work.width, work.height, scale, rule.threshold) : undefined;
      // One pose run a photo at most, on the first piece that asks (an arm to judge, a region with no body keypoint).
      const posesOf = models.pose ? posesIn(models.pose, img, timingsMs) : undefined;
      const armsOf = posesOf ? async (): Promise<ArmSegment[]> => armSegments(await posesOf(), work.width, work.height, { personMinScore: POSE_PERSON_MIN, keypointMinScore: POSE_KEYPOINT_MIN }) : undefined;
      const bodyOf = posesOf ? async (): Promise<BodyPoint[]> => bodyPoints(await posesOf(), work.width, work.height, POSE_PERSON_MIN) : undefined;
      const rgb = rule.gapColour > 0 || rule.groundColour > 0 || rule.defocusFill > 0 || rule.softBehind > 0 ? await workingRgb(img, work.width, work.height) : undefined;
      // At the working size (no upsampling) the guided filter only smooths ISNet's edges: there, only near the rule's own pieces.
      const nearOnly = rule.guidedNearChanges && !profile.highDetail && work.width === img.width && work.height === img.height;
      const isnetMatte = rule.isnetEdge > 0 || nearOnly ? new Float32Array(matte.data) : null;
      person = await keepPerson(matte, mask, (box) => personMaskIn(personModel, img, box, scale), rule, found, closer, armsOf, rgb, bodyOf);
      if (person && isnetMatte) {
        const changes = keepIsnetEdge(matte, isnetMatte, rule, isnetEdgeReach(work.width, work.height));
        if (nearOnly) nearChanges = changes;
      }
      if (person) report = found;
    }
    lap("person");
  }

  // An "auto" photo found to be a portrait is cleaned up as a person.
  cleanMatte(matte, person && opts.subjectType === "auto" ? subjectProfile("person", profile.highDetail) : profile);
  const quality = cutoutQuality(matte, report, scale, img);
  lap("matte");

  const alpha = await upsampleMatte(matte, img, profile.highDetail || (person && (models.guidedPersonEdges ?? true)), nearChanges);
  lap("upsample");

  const finalAlpha = await finishEdges(alpha, img.width, img.height, profile.hardEdges ? 0 : opts.edgeSoftness);
  lap("edges");

  const png = await encodeCutout(img, finalAlpha, opts.background);
  lap("encode");
  timingsMs.total = Math.round(performance.now() - started);
  return { png, width: img.width, height: img.height, timingsMs, quality, peopleMap: report?.map };
}

/**
 * The people the pose model finds on the whole photo (letterboxed into its square, so limbs keep
 * their shape), run once on the first call; its load and run are timed as `pose`.
 */
function posesIn(pose: () => Promise<PoseModel>, img: DecodedImage, timingsMs: Record<string, number>): () => Promise<Pose[]> {
  let found: Promise<Pose[]> | undefined;
  return () =>
    (found ??= (async () => {
      const t0 = performance.now();
      const model = await pose();
      const rgb = await sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } })
        .flatten({ background: "#ffffff" })
        .resize(POSE_MODEL_SIZE, POSE_MODEL_SIZE, { fit: "contain", background: "#000000", kernel: "lanczos3" })
        .raw()
        .toBuffer();
      const poses = await model.run(rgb);
      timingsMs.pose = Math.round(performance.now() - t0);
      return poses;
    })());
}

/** The photo's colours at the working size (RGB, interleaved): the person rule's gap cue (PERSON_RULE.gapColour). */
async function workingRgb(img: DecodedImage, w: number, h: number): Promise<Uint8Array> {
  const rgb = await sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } })
    .flatten({ background: "#ffffff" })
    .resize(w, h, { fit: "fill" })
    .raw()
    .toBuffer();
  return new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.length);
}

/** The person model's probability at the working size (the whole photo, stretched to its square input like ISNet's). */
export async function personMask(model: PersonModel, img: DecodedImage, outWidth: number, outHeight: number): Promise<Float32Array> {
  const rgb = await sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } })
    .flatten({ background: "#ffffff" })
    .resize(PERSON_MODEL_SIZE, PERSON_MODEL_SIZE, { fit: "fill", kernel: "lanczos3" })
    .raw()
    .toBuffer();
  const p = await model.run(rgb);
  return resizeBilinear(p, PERSON_MODEL_SIZE, PERSON_MODEL_SIZE, outWidth, outHeight);
}

/**
 * For a photo said to show a person where the whole-frame person mask holds less than the rule's
 * minimum (`rule.subjectLook`): the person model on the box around ISNet's subject, widened by
 * SUBJECT_REACH on each side (raised or outstretched arms ISNet missed) and by a margin above and
 * below, as the whole-frame mask (0 outside that box). A figure in a wide frame is squeezed by the
 * model's square input, and a back-lit one is then lost (v261: no one in the whole frame, 24 % of
 * the box around her, both raised arms). Undefined when there is no subject, the whole frame already
 * has a person, or the box shows no one either (the rule then does not run, as before).
 */
async function lookAtSubject(model: PersonModel, img: DecodedImage, matte: Matte, mask: Float32Array, scale: number, rule: PersonRule): Promise<Float32Array | undefined> {
  const { width: w, height: h } = matte;
  let area = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]! >= rule.threshold) area++;
  if (area >= rule.minArea * w * h) return undefined;
  const box = subjectBox(matte);
  if (!box) return undefined;
  // Arms reach out about half a body's length on each side of the part ISNet found (the torso).
  const reach = Math.round(SUBJECT_REACH * Math.max(box.width, box.height));
  const margin = Math.round(CLOSER_MARGIN * Math.max(box.width, box.height));
  const x0 = Math.max(0, box.left - reach), x1 = Math.min(w, box.left + box.width + reach);
  const y0 = Math.max(0, box.top - margin), y1 = Math.min(h, box.top + box.height + margin);
  const region = { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
  const p = await personMaskIn(model, img, region, scale);
  const out = new Float32Array(w * h);
  let found = 0;
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      const v = p[y * region.width + x]!;
      out[(y0 + y) * w + x0 + x] = v;
      if (v >= rule.threshold) found++;
    }
  }
  return found >= rule.minArea * w * h ? out : undefined;
}

/** How far beside ISNet's subject the look at it reaches, as a share of the subject's long side (lookAtSubject). */
const SUBJECT_REACH = 0.5;

/** A closer look pays off only when the people leave this much of the frame out. */
const CLOSER_MAX_AREA = 0.6;
const CLOSER_MARGIN = 0.1;

/**
 * The person model again on the box around everyone it found (plus a margin), so small people
 * (a group across a wide frame) get more of its 256 px: their probability at the working size,
 * 0 outside the box. Undefined when the people fill most of the frame (the first look is as close).
 */
async function closerLook(model: PersonModel, img: DecodedImage, mask: Float32Array, w: number, h: number, scale: number, threshold: number): Promise<Float32Array | undefined> {
  const box = subjectBox({ data: mask, width: w, height: h }, threshold);
  if (!box) return undefined;
  const margin = Math.round(Math.max(box.width, box.height) * CLOSER_MARGIN);
  const x0 = Math.max(0, box.left - margin), y0 = Math.max(0, box.top - margin);
  const x1 = Math.min(w, box.left + box.width + margin), y1 = Math.min(h, box.top + box.height + margin);
  if ((x1 - x0) * (y1 - y0) > CLOSER_MAX_AREA * w * h) return undefined;
  const region = { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
  const p = await personMaskIn(model, img, region, scale);
  const out = new Float32Array(w * h);
  for (let y = 0; y < region.height; y++) out.set(p.subarray(y * region.width, (y + 1) * region.width), (y0 + y) * w + x0);
  return out;
}

/** The person model on a region given in working pixels (a second look): its probability at the region's working size. */
async function personMaskIn(model: PersonModel, img: DecodedImage, box: Box, scale: number): Promise<Float32Array> {
  const left = Math.min(img.width - 1, Math.floor(box.left / scale));
  const top = Math.min(img.height - 1, Math.floor(box.top / scale));
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(img.width - left, Math.round(box.width / scale))),
    height: Math.max(1, Math.min(img.height - top, Math.round(box.height / scale))),
  };
  const rgb = await sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } })
    .extract(region)
    .flatten({ background: "#ffffff" })
    .resize(PERSON_MODEL_SIZE, PERSON_MODEL_SIZE, { fit: "fill", kernel: "lanczos3" })
    .raw()
    .toBuffer();
  const p = await model.run(rgb);
  return resizeBilinear(p, PERSON_MODEL_SIZE, PERSON_MODEL_SIZE, box.width, box.height);
}

/** Runs the model on a region of the photo; returns the matte resized to outWidth × outHeight. */
export async function predict(model: IsnetModel, img: DecodedImage, region: Region, outWidth: number, outHeight: number) {
  const t0 = performance.now();
  let pipeline = sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } });
  if (region.width !== img.width || region.height !== img.height) pipeline = pipeline.extract(region);
  // The model was trained on opaque photos: transparent parts are shown on white.
  // "fill" stretches to the square input, as ISNet was trained and as imgly feeds it.
  const rgb = await pipeline
    .flatten({ background: "#ffffff" })
    .resize(model.size, model.size, { fit: "fill", kernel: "lanczos3" })
    .raw()
    .toBuffer();
  const input = toModelInput(rgb, model.size);
  const t1 = performance.now();
  const raw = await model.run(input);
  const t2 = performance.now();
  return {
    matte: resizeBilinear(raw, model.size, model.size, outWidth, outHeight),
    inputMs: Math.round(t1 - t0),
    inferenceMs: Math.round(t2 - t1),
  };
}

/**
 * High detail, step 1: when the subject leaves much of the frame empty, a second
 * model pass on a crop around it (plus a margin) sees the subject with up to
 * several times more model pixels, so outlines and thin parts come out finer.
 * The refined crop replaces the first matte inside the crop.
 */
async function refineAroundSubject(model: IsnetModel, img: DecodedImage, matte: Matte, scale: number) {
  const box = subjectBox(matte);
  if (!box) return null;
  const margin = Math.round(Math.max(box.width, box.height) * REFINE_MARGIN) + 2;
  const x0 = Math.max(0, box.left - margin);
  const y0 = Math.max(0, box.top - margin);
  const x1 = Math.min(matte.width, box.left + box.width + margin);
  const y1 = Math.min(matte.height, box.top + box.height + margin);
  if ((x1 - x0) * (y1 - y0) > REFINE_MAX_AREA * matte.width * matte.height) return null;

  const left = Math.floor(x0 / scale);
  const top = Math.floor(y0 / scale);
  const region = {
    left,
    top,
    width: Math.min(img.width, Math.ceil(x1 / scale)) - left,
    height: Math.min(img.height, Math.ceil(y1 / scale)) - top,
  };
  const refined = await predict(model, img, region, x1 - x0, y1 - y0);
  for (let y = y0; y < y1; y++) {
    matte.data.set(refined.matte.subarray((y - y0) * (x1 - x0), (y - y0 + 1) * (x1 - x0)), y * matte.width + x0);
  }
  return { inferenceMs: refined.inferenceMs };
}

function cleanMatte(matte: Matte, profile: SubjectProfile): void {
  if (profile.levels) applyLevels(matte, profile.levels[0], profile.levels[1]);
  if (profile.islandFraction > 0) removeSmallIslands(matte, profile.islandFraction);
  if (profile.holes) fillHoles(matte, profile.holes.maxFraction, profile.holes.minConfidence);
  if (profile.solidInteriorFraction) {
    solidifyInterior(matte, Math.max(2, profile.solidInteriorFraction * Math.max(matte.width, matte.height)));
  }
}

/**
 * To the photo's full size. Plain: bicubic resampling of the matte (libvips), never
 * nearest, so edges are smooth at any size. High detail: guided by the photo's own
 * full-resolution luminance (guided-upsample.ts). With `guidedWeight` (rule.guidedNearChanges), guided where it is 1
 * and plain where it is 0.
 */
export async function upsampleMatte(matte: Matte, img: DecodedImage, guided: boolean, guidedWeight?: Float32Array): Promise<Uint8Array> {
  const { width: w, height: h } = matte;
  if (guided && guidedWeight) return blendUpsampled(await upsampleMatte(matte, img, true), await upsampleMatte(matte, img, false), guidedWeight, w, h, img.width, img.height);
  if (guided) {
    const small = await sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } })
      .resize(w, h, { fit: "fill", kernel: "lanczos3" })
      .raw()
      .toBuffer();
    const guideLow = new Float32Array(w * h);
    for (let i = 0; i < guideLow.length; i++) guideLow[i] = luminance(small, i * 4) / 255;
    const grayFull = new Uint8Array(img.width * img.height);
    for (let i = 0; i < grayFull.length; i++) grayFull[i] = luminance(img.rgba, i * 4);
    const radius = Math.max(2, Math.round(Math.max(w, h) / 256));
    return guidedUpsample(matte, guideLow, grayFull, img.width, img.height, { radius, eps: 1e-3 });
  }
  const bytes = new Uint8Array(w * h);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.round(matte.data[i]! * 255);
  if (w === img.width && h === img.height) return bytes;
  return singleChannel(
    sharp(bytes, { raw: { width: w, height: h, channels: 1 } }).resize(img.width, img.height, { fit: "fill", kernel: "cubic" }),
    img.width * img.height,
  );
}

/**
 * rule.guidedNearChanges: the guided upsampling (`guided`) where the weight (working size) is 1, the plain
 * bicubic one (`plain`) where it is 0: the rule's own pieces follow the photo's edges, ISNet's edges elsewhere
 * come up as without the rule.
 */
function blendUpsampled(guided: Uint8Array, plain: Uint8Array, weight: Float32Array, w: number, h: number, fullWidth: number, fullHeight: number): Uint8Array {
  const k = resizeBilinear(weight, w, h, fullWidth, fullHeight);
  for (let i = 0; i < plain.length; i++) {
    const t = k[i]!;
    if (t > 0) plain[i] = Math.round(t * guided[i]! + (1 - t) * plain[i]!);
  }
  return plain;
}

/** RGBA PNG with the cut-out as alpha, or an opaque RGB PNG on white. */
async function encodeCutout(img: DecodedImage, alpha: Uint8Array, background: BgRemovalOptions["background"]): Promise<Buffer> {
  const px = img.rgba;
  for (let i = 0, p = 0; i < alpha.length; i++, p += 4) {
    const a = img.hasAlpha ? Math.round((alpha[i]! * px[p + 3]!) / 255) : alpha[i]!;
    px[p + 3] = a;
    // Colour under fully transparent pixels is invisible: zero it so the PNG is smaller.
    if (a === 0) px[p] = px[p + 1] = px[p + 2] = 0;
  }
  let out = sharp(px, { raw: { width: img.width, height: img.height, channels: 4 } });
  if (background === "white") out = out.flatten({ background: "#ffffff" });
  if (img.density) out = out.withMetadata({ density: img.density });
  return out.png({ compressionLevel: 6 }).toBuffer();
}
