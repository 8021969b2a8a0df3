// Length of the longest common subsequence of two integer sequences, bit-parallel
// (Allison–Dix / Crochemore et al.): O(|a|·|b| / 32) time, O(|alphabet ∩ a| · |a| / 32) memory.

/** @param {Int32Array|number[]} a @param {Int32Array|number[]} b */
export function lcsLength(a, b) {
  if (a.length === 0 || b.length === 0) return 0;
  // Bits run over the shorter sequence.
  if (a.length > b.length) [a, b] = [b, a];
  const m = a.length;
  const words = (m + 31) >>> 5;
  /** @type {Map<number, Uint32Array>} */
  const masks = new Map();
  for (let i = 0; i < m; i++) {
    let mask = masks.get(a[i]);
    if (mask === undefined) {
      mask = new Uint32Array(words);
      masks.set(a[i], mask);
    }
    mask[i >>> 5] |= 1 << (i & 31);
  }
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let j = 0; j < b.length; j++) {
    const mask = masks.get(b[j]);
    if (mask === undefined) continue;
    // V' = (V + (V & M)) | (V & ~M), with the carry running across words.
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w];
      const u = (vw & mask[w]) >>> 0;
      const sum = vw + u + carry; // < 2^33: exact in a double
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = ((sum >>> 0) | (vw & ~mask[w])) >>> 0;
    }
  }
  // Zero bits among the first m are the LCS length.
  let ones = 0;
  for (let w = 0; w < words; w++) {
    let x = v[w];
    if (w === words - 1 && (m & 31) !== 0) x &= (1 << (m & 31)) - 1;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    ones += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return m - ones;
}
