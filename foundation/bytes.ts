// Bytes as the public types name them: Uint8Array (a Buffer is one), so a consumer of automemo's types needs no
// @types/node. Code that needs Buffer's methods takes a view of the same memory, never a copy.

/** The same bytes as a Buffer (no copy). */
export const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
