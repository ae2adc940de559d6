/** Points (1/72 inch): PDF's own unit. */
export const PAGE_SIZES = {
  letter: { width: 612, height: 792, label: "US Letter (8.5 x 11 in)" },
  a4: { width: 595.28, height: 841.89, label: "A4 (210 x 297 mm)" },
} as const;
export type PageSize = keyof typeof PAGE_SIZES;

export const LAYOUTS = {
  single: { cols: 1, rows: 1 },
  "4up": { cols: 2, rows: 2 },
  "9up": { cols: 3, rows: 3 },
} as const;
export type Layout = keyof typeof LAYOUTS;

export const cardsPerPage = (layout: Layout) => LAYOUTS[layout].cols * LAYOUTS[layout].rows;

/**
 * Half an inch of margin on every side: clear of any printer's unprintable edge,
 * and room for the cut marks, which sit 6 to 24 pt outside the cards.
 */
export const PAGE_MARGIN = 36;
export const CUT_MARK_GAP = 6;
export const CUT_MARK_LENGTH = 18;

export type Box = { x: number; y: number; width: number; height: number };

/**
 * The card cells of one page, reading order (left to right, top to bottom).
 * Cards touch (no gutter), so every cut serves two cards and a guillotine needs
 * (cols + 1) + (rows + 1) cuts per stack; the card design keeps its own inner
 * safety margin so a slightly-off cut never touches content.
 */
export function cardCells(layout: Layout, pageSize: PageSize): Box[] {
  const { cols, rows } = LAYOUTS[layout];
  const page = PAGE_SIZES[pageSize];
  const width = (page.width - 2 * PAGE_MARGIN) / cols;
  const height = (page.height - 2 * PAGE_MARGIN) / rows;
  const cells: Box[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      cells.push({ x: PAGE_MARGIN + c * width, y: page.height - PAGE_MARGIN - (r + 1) * height, width, height });
    }
  }
  return cells;
}

/** Where the cuts go: x of every vertical cut line, y of every horizontal one. */
export function cutLines(layout: Layout, pageSize: PageSize): { xs: number[]; ys: number[] } {
  const { cols, rows } = LAYOUTS[layout];
  const page = PAGE_SIZES[pageSize];
  const width = (page.width - 2 * PAGE_MARGIN) / cols;
  const height = (page.height - 2 * PAGE_MARGIN) / rows;
  return {
    xs: Array.from({ length: cols + 1 }, (_, i) => PAGE_MARGIN + i * width),
    ys: Array.from({ length: rows + 1 }, (_, i) => PAGE_MARGIN + i * height),
  };
}
