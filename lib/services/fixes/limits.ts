/**
 * Client-safe: the most pages of a PDF an AI fix job draws for its before/after
 * review. Drawing is a background step; past this many pages the reviewer is
 * told to open the file itself (preflight accepts PDFs of thousands of pages).
 */
export const MAX_PREVIEW_PAGES = 200;
