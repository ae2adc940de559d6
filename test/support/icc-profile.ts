// A small matrix/TRC RGB ICC profile (version 2.1) built byte by byte for tests, so no
// third-party profile file is needed: sRGB's primaries (D50-adapted, as in the ICC's
// sRGB profile) with one gamma for all three channels. A gamma of 1.0 is "linear light":
// converting sRGB into it lowers every mid-tone (sRGB 128 is about 55), which tells a
// conversion from a mere tag. `deviceClass`/`colourSpace` let a test build a wrong one.

const s15 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(Math.round(v * 65536));
  return b;
};
const sig = (s: string) => Buffer.from(s.padEnd(4, " ").slice(0, 4), "latin1");
const xyzTag = (x: number, y: number, z: number) => Buffer.concat([sig("XYZ "), Buffer.alloc(4), s15(x), s15(y), s15(z)]);
const pad4 = (b: Buffer) => (b.length % 4 ? Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]) : b);

function descTag(text: string) {
  const ascii = Buffer.from(`${text}\0`, "latin1");
  const count = Buffer.alloc(4);
  count.writeUInt32BE(ascii.length);
  // textDescriptionType: ASCII, then empty Unicode (lang 0, count 0) and ScriptCode (code 0, count 0, 67 bytes).
  return Buffer.concat([sig("desc"), Buffer.alloc(4), count, ascii, Buffer.alloc(8), Buffer.alloc(3), Buffer.alloc(67)]);
}

function curvTag(gamma: number) {
  const b = Buffer.alloc(14);
  sig("curv").copy(b, 0);
  b.writeUInt32BE(1, 8);
  b.writeUInt16BE(Math.round(gamma * 256), 12);
  return b;
}

export function buildRgbProfile(opts: { description: string; gamma?: number; deviceClass?: string; colourSpace?: string }): Buffer {
  const gamma = opts.gamma ?? 1;
  const trc = curvTag(gamma);
  const tags: [string, Buffer][] = [
    ["desc", descTag(opts.description)],
    ["cprt", Buffer.concat([sig("text"), Buffer.alloc(4), Buffer.from("No copyright, test profile\0", "latin1")])],
    ["wtpt", xyzTag(0.9642, 1, 0.8249)],
    ["rXYZ", xyzTag(0.4361, 0.2225, 0.0139)],
    ["gXYZ", xyzTag(0.3851, 0.7169, 0.0971)],
    ["bXYZ", xyzTag(0.1431, 0.0606, 0.7141)],
    ["rTRC", trc],
    ["gTRC", trc],
    ["bTRC", trc],
  ];
  const tableSize = 4 + 12 * tags.length;
  let offset = 128 + tableSize;
  const table = Buffer.alloc(tableSize);
  table.writeUInt32BE(tags.length, 0);
  const data: Buffer[] = [];
  tags.forEach(([name, body], i) => {
    sig(name).copy(table, 4 + 12 * i);
    table.writeUInt32BE(offset, 8 + 12 * i);
    table.writeUInt32BE(body.length, 12 + 12 * i);
    const padded = pad4(body);
    data.push(padded);
    offset += padded.length;
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  sig("lcms").copy(header, 4);
  header.writeUInt32BE(0x02100000, 8); // version 2.1
  sig(opts.deviceClass ?? "mntr").copy(header, 12);
  sig(opts.colourSpace ?? "RGB").copy(header, 16);
  sig("XYZ").copy(header, 20);
  header.writeUInt16BE(2026, 24);
  header.writeUInt16BE(1, 26);
  header.writeUInt16BE(1, 28);
  sig("acsp").copy(header, 36);
  // Rendering intent 0 (perceptual); the PCS illuminant D50.
  s15(0.9642).copy(header, 68);
  s15(1).copy(header, 72);
  s15(0.8249).copy(header, 76);
  return Buffer.concat([header, table, ...data]);
}
