/**
 * QR cards' fixed values, the one copy the API schema, the PDF and the studio page
 * read. Client-safe: no server imports (components import it).
 */
export { LAYOUTS, PAGE_SIZES, cardsPerPage, type Layout, type PageSize } from "./layouts";

/** Subjects one generation (or preview) request may carry. */
export const MAX_QR_SUBJECTS = 2000;
