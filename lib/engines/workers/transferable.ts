/**
 * Bytes that can be moved to or from a worker thread on every supported Node.js
 * version: a copy in a fresh ArrayBuffer that V8 owns, and the list to pass as
 * postMessage's transfer list.
 *
 * Never transfer a Buffer that came from elsewhere. Buffers made by native addons
 * (sharp's output, for one) are external memory: Node 22 and later refuse to
 * transfer them ("Cannot transfer object of unsupported type"), where Node 20 let
 * them through. Small Buffers are views into Node's shared pool, which a transfer
 * would detach under everyone else. A copy costs about a millisecond per 10 MB.
 */
export function transferable(bytes: Uint8Array): { bytes: Uint8Array<ArrayBuffer>; transfer: ArrayBuffer[] } {
  const copy = new Uint8Array(bytes);
  return { bytes: copy, transfer: [copy.buffer] };
}
