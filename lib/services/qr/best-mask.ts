import QRCode from "qrcode";

/**
 * Picks the QR mask pattern exactly as the `qrcode` library does (ISO 18004
 * penalty rules N1 to N4, lowest total wins, ties to the lower pattern), but on
 * flat arrays: `qrcode`'s own search calls a getter per module and was two
 * thirds of the time of a 2,000-card run. The library still encodes the data
 * and error correction; this only chooses and applies the mask.
 * best-mask.test.ts checks the result is the library's own symbol, module for
 * module, on hundreds of payloads.
 */

type Matrix = { size: number; data: Uint8Array; reservedBit: Uint8Array };

const N1 = 3;
const N2 = 3;
const N3 = 40;
const N4 = 10;

function maskBit(pattern: number, i: number, j: number): boolean {
  switch (pattern) {
    case 0: return (i + j) % 2 === 0;
    case 1: return i % 2 === 0;
    case 2: return j % 3 === 0;
    case 3: return (i + j) % 3 === 0;
    case 4: return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5: return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6: return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default: return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

const maskCache = new Map<number, Uint8Array[]>();
/** The eight mask patterns for one symbol size, as 0/1 per module (row-major). */
function masksFor(size: number): Uint8Array[] {
  let masks = maskCache.get(size);
  if (!masks) {
    masks = Array.from({ length: 8 }, (_, p) => {
      const m = new Uint8Array(size * size);
      for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) m[r * size + c] = maskBit(p, r, c) ? 1 : 0;
      return m;
    });
    maskCache.set(size, masks);
  }
  return masks;
}

/** The 15 format bits for error correction level `eclBit` (M = 0) and a mask: the standard (15, 5) BCH code. */
function formatBits(eclBit: number, mask: number): number {
  const G15 = 0b10100110111;
  const G15_MASK = 0b101010000010010;
  const data = (eclBit << 3) | mask;
  let d = data << 10;
  const digits = (n: number) => (n === 0 ? 0 : 32 - Math.clz32(n));
  while (digits(d) - digits(G15) >= 0) d ^= G15 << (digits(d) - digits(G15));
  return ((data << 10) | d) ^ G15_MASK;
}

/** Module indexes that carry format bit i (two copies), as the library places them. */
function formatCells(size: number): Array<[number, number, number]> {
  const cells: Array<[number, number, number]> = [];
  for (let i = 0; i < 15; i++) {
    const vRow = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    const hCol = i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1;
    cells.push([i, vRow * size + 8, 8 * size + hCol]);
  }
  return cells;
}

/**
 * The library's penalty total, computed cheapest rule first and abandoned as
 * soon as it reaches `limit` (only a strictly lower total can win).
 */
function penalty(m: Uint8Array, size: number, limit: number): number {
  // N4: deviation of the dark share from 50%, in 5% steps.
  let dark = 0;
  for (let i = 0; i < m.length; i++) dark += m[i]!;
  let points = Math.abs(Math.ceil((dark * 100) / m.length / 5) - 10) * N4;
  // N2: 2x2 blocks of one colour.
  let blocks = 0;
  for (let r = 0; r < size - 1; r++) {
    for (let i = r * size, end = i + size - 1; i < end; i++) {
      const sum = m[i]! + m[i + 1]! + m[i + size]! + m[i + size + 1]!;
      if (sum === 4 || sum === 0) blocks++;
    }
  }
  points += blocks * N2;
  if (points >= limit) return points;
  // N1: runs of 5+ same-colour modules in rows and columns.
  for (let a = 0; a < size; a++) {
    let rowRun = 0;
    let colRun = 0;
    let rowLast = -1;
    let colLast = -1;
    for (let b = 0; b < size; b++) {
      const h = m[a * size + b]!;
      if (h === rowLast) rowRun++;
      else {
        if (rowRun >= 5) points += N1 + rowRun - 5;
        rowLast = h;
        rowRun = 1;
      }
      const v = m[b * size + a]!;
      if (v === colLast) colRun++;
      else {
        if (colRun >= 5) points += N1 + colRun - 5;
        colLast = v;
        colRun = 1;
      }
    }
    if (rowRun >= 5) points += N1 + rowRun - 5;
    if (colRun >= 5) points += N1 + colRun - 5;
  }
  if (points >= limit) return points;
  // N3: finder-like 1:1:3:1:1 patterns with 4 light modules beside them.
  let finders = 0;
  for (let a = 0; a < size; a++) {
    let rowBits = 0;
    let colBits = 0;
    for (let b = 0; b < size; b++) {
      rowBits = ((rowBits << 1) & 0x7ff) | m[a * size + b]!;
      colBits = ((colBits << 1) & 0x7ff) | m[b * size + a]!;
      if (b >= 10) {
        if (rowBits === 0x5d0 || rowBits === 0x05d) finders++;
        if (colBits === 0x5d0 || colBits === 0x05d) finders++;
      }
    }
  }
  return points + finders * N3;
}

/**
 * The mask `qrcode` would choose for a symbol, given that symbol built with
 * mask 0 (`QRCode.create(..., { maskPattern: 0 })`) at error correction M,
 * and the finished symbol with that mask (what the library would have built).
 */
export function bestMask(withMask0: Matrix, eclBit = 0): { mask: number; data: Uint8Array } {
  if (withMask0.size <= 31) return bestMaskPacked(withMask0, eclBit);
  const { size, data, reservedBit } = withMask0;
  const masks = masksFor(size);
  const cells = formatCells(size);
  const n = size * size;
  // The unmasked data (function patterns are reserved and never masked).
  const raw = new Uint8Array(n);
  const mask0 = masks[0]!;
  for (let i = 0; i < n; i++) raw[i] = reservedBit[i] ? data[i]! : data[i]! ^ mask0[i]!;
  let trial = new Uint8Array(n);
  let best = new Uint8Array(n);
  let bestPattern = 0;
  let lowest = Infinity;
  for (let p = 0; p < 8; p++) {
    const mask = masks[p]!;
    for (let i = 0; i < n; i++) trial[i] = reservedBit[i] ? raw[i]! : raw[i]! ^ mask[i]!;
    const bits = formatBits(eclBit, p);
    for (let k = 0; k < cells.length; k++) {
      const [bit, a, b] = cells[k]!;
      trial[a] = trial[b] = (bits >> bit) & 1;
    }
    trial[(size - 8) * size + 8] = 1;
    const score = penalty(trial, size, lowest);
    if (score < lowest) {
      lowest = score;
      bestPattern = p;
      [best, trial] = [trial, best];
    }
  }
  return { mask: bestPattern, data: best };
}

/**
 * Versions 1 to 3 (up to 31 modules, which holds every payload of up to 42
 * bytes): each row and column packed into one 32-bit integer, module 0 in the
 * highest bit used, so a rule is a few bit operations per line instead of a
 * read per module. Same rules, same result as `penalty`.
 */
type Packed = { masksRows: Int32Array[]; masksCols: Int32Array[]; formatPosRows: Int32Array; formatPosCols: Int32Array; formatOnRows: Int32Array[]; formatOnCols: Int32Array[] };
const packedCache = new Map<string, Packed>();

function packLines(size: number, get: (r: number, c: number) => number): { rows: Int32Array; cols: Int32Array } {
  const rows = new Int32Array(size);
  const cols = new Int32Array(size);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (get(r, c)) {
        rows[r]! |= 1 << (size - 1 - c);
        cols[c]! |= 1 << (size - 1 - r);
      }
    }
  }
  return { rows, cols };
}

function packedFor(size: number, reservedBit: Uint8Array, eclBit: number): Packed {
  const key = `${size}:${eclBit}`;
  let packed = packedCache.get(key);
  if (!packed) {
    const masks = masksFor(size);
    const cells = formatCells(size);
    const isFormat = new Uint8Array(size * size);
    for (const [, a, b] of cells) isFormat[a] = isFormat[b] = 1;
    isFormat[(size - 8) * size + 8] = 1;
    // Masks never touch reserved modules (function patterns, format and version info).
    const masked = masks.map((m) => packLines(size, (r, c) => (reservedBit[r * size + c] ? 0 : m[r * size + c]!)));
    const pos = packLines(size, (r, c) => isFormat[r * size + c]!);
    const on = Array.from({ length: 8 }, (_, p) => {
      const bits = formatBits(eclBit, p);
      const value = new Uint8Array(size * size);
      for (const [bit, a, b] of cells) value[a] = value[b] = (bits >> bit) & 1;
      value[(size - 8) * size + 8] = 1;
      return packLines(size, (r, c) => value[r * size + c]!);
    });
    packed = {
      masksRows: masked.map((m) => m.rows),
      masksCols: masked.map((m) => m.cols),
      formatPosRows: pos.rows,
      formatPosCols: pos.cols,
      formatOnRows: on.map((o) => o.rows),
      formatOnCols: on.map((o) => o.cols),
    };
    packedCache.set(key, packed);
  }
  return packed;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** N1 and N3 of one line of `size` modules (module 0 in bit size-1). */
function linePenalty(line: number, size: number): number {
  let points = 0;
  // N1: a set bit j in `edges` means modules differ across the boundary below bit j.
  let edges = (line ^ (line >>> 1)) & ((1 << (size - 1)) - 1);
  let runStart = 0;
  while (edges !== 0) {
    const low = edges & -edges;
    const j = 31 - Math.clz32(low);
    const run = j + 1 - runStart;
    if (run >= 5) points += N1 + run - 5;
    runStart = j + 1;
    edges ^= low;
  }
  const last = size - runStart;
  if (last >= 5) points += N1 + last - 5;
  // N3: 11-module windows, earliest module in the window's top bit, as the library reads them.
  for (let shift = size - 11; shift >= 0; shift--) {
    const w = (line >>> shift) & 0x7ff;
    if (w === 0x5d0 || w === 0x05d) points += N3;
  }
  return points;
}

function bestMaskPacked(withMask0: Matrix, eclBit: number): { mask: number; data: Uint8Array } {
  const { size, data, reservedBit } = withMask0;
  const packed = packedFor(size, reservedBit, eclBit);
  const mask0 = masksFor(size)[0]!;
  const raw = packLines(size, (r, c) => {
    const i = r * size + c;
    return reservedBit[i] ? data[i]! : data[i]! ^ mask0[i]!;
  });
  const rows = new Int32Array(size);
  const cols = new Int32Array(size);
  const rowBits = ((1 << (size - 1)) - 1) | (1 << (size - 1));
  let bestPattern = 0;
  let lowest = Infinity;
  for (let p = 0; p < 8; p++) {
    const mRows = packed.masksRows[p]!;
    const mCols = packed.masksCols[p]!;
    const onRows = packed.formatOnRows[p]!;
    const onCols = packed.formatOnCols[p]!;
    let dark = 0;
    for (let i = 0; i < size; i++) {
      rows[i] = ((raw.rows[i]! ^ mRows[i]!) & ~packed.formatPosRows[i]!) | onRows[i]!;
      cols[i] = ((raw.cols[i]! ^ mCols[i]!) & ~packed.formatPosCols[i]!) | onCols[i]!;
      dark += popcount(rows[i]!);
    }
    let points = Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * N4;
    // N2: 2x2 blocks: same colour down (both pairs) and across.
    let blocks = 0;
    for (let r = 0; r < size - 1; r++) {
      const a = rows[r]!;
      const down = ~(a ^ rows[r + 1]!) & rowBits;
      blocks += popcount(down & (down >>> 1) & ~(a ^ (a >>> 1)) & (rowBits >>> 1));
    }
    points += blocks * N2;
    for (let i = 0; i < size && points < lowest; i++) points += linePenalty(rows[i]!, size) + linePenalty(cols[i]!, size);
    if (points < lowest) {
      lowest = points;
      bestPattern = p;
    }
  }
  const result = new Uint8Array(size * size);
  const mRows = packed.masksRows[bestPattern]!;
  const onRows = packed.formatOnRows[bestPattern]!;
  for (let r = 0; r < size; r++) {
    const line = ((raw.rows[r]! ^ mRows[r]!) & ~packed.formatPosRows[r]!) | onRows[r]!;
    for (let c = 0; c < size; c++) result[r * size + c] = (line >>> (size - 1 - c)) & 1;
  }
  return { mask: bestPattern, data: result };
}

/**
 * The symbol QRCode.create would build, in about a third of the time: the
 * library encodes the data (with mask 0), this picks the mask the library
 * would pick and applies it.
 */
export function createWithBestMask(segments: QRCode.QRCodeSegment[], options: { errorCorrectionLevel: "M"; version: number }) {
  const first = QRCode.create(segments, { ...options, maskPattern: 0 });
  const { mask, data } = bestMask(first.modules as unknown as Matrix);
  return { maskPattern: mask, modules: { size: first.modules.size, data } };
}
