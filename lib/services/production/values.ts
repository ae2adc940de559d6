// Production's fixed values, read by its schemas, its services and its pages (client-safe: no server imports).

/** Every print file is rendered at this resolution: the labs' standard for photographic prints. */
export const PRINT_PPI = 300;

/** Who ships a batch: the lab to each order's address, or all of it to the school in one parcel. */
export const BATCH_SHIPPINGS = ["direct", "school"] as const;
export type BatchShipping = (typeof BATCH_SHIPPINGS)[number];

/** Where a studio moves a batch, in order; each step moves the batch's orders where it says. */
export const BATCH_STEPS = ["sent", "printed", "shipped"] as const;
export type BatchStep = (typeof BATCH_STEPS)[number];

/** The manifest's fields, in column order; a studio renames columns for its lab's import. */
export const MANIFEST_FIELDS = ["order", "item", "product_code", "size", "quantity", "file", "ship_to", "school_batch", "child", "class", "teacher"] as const;
export type ManifestField = (typeof MANIFEST_FIELDS)[number];

/** Files rendered per job step: a restart renders at most this many again. */
export const PRINTS_PER_STEP = 4;

/** Backgrounds a studio keeps (uploaded pictures and colours together). */
export const MAX_BACKGROUNDS = 50;
/** A colour background is written #rrggbb. */
export const BACKGROUND_COLOR = /^#[0-9a-fA-F]{6}$/;
/**
 * A head cut by the photo's top edge: the person matte runs off the top, over a face's head,
 * across at least this share of that face's width (a crown cut flat; hair only grazing the edge
 * is a narrower chord, a third of the face or less on the picture-day portraits measured).
 */
export const HEAD_CUT_SHARE = 0.5;
/** Without a face found: the matte runs off the top across more than this share of the crop's width. */
export const TOP_EDGE_SHARE = 0.2;
/** A lab's ICC profile: LUT-based output profiles run to a few hundred KB; more than this is not a profile. */
export const MAX_LAB_PROFILE_BYTES = 4 * 1024 * 1024;
