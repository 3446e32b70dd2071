// Bounds on the shape of a primitive's arguments, checked before any per-element work (schema validation,
// copying, metering). A program can hand the host an array whose length is 15 million with no elements in it, or
// a structure nested 100,000 levels deep; walking those element by element would stall or exhaust the host, so
// lengths are read first, holes are refused, and the walk stops at the first limit it meets.

export interface ArgLimits {
  /** Nesting of arrays and objects. */
  maxDepth: number;
  /** Elements of one array (its `length`, holes included). */
  maxArrayLength: number;
  /** Keys of one object. */
  maxKeys: number;
  /** Arrays, objects and scalars visited in all. */
  maxNodes: number;
  /** String characters plus typed-array bytes in all. */
  maxChars: number;
}

export const DEFAULT_ARG_LIMITS: ArgLimits = {
  maxDepth: 8,
  maxArrayLength: 100_000,
  maxKeys: 64,
  maxNodes: 1_000_000,
  maxChars: 64 * 1024 * 1024,
};

/**
 * The first way `args` exceeds `limits`, as a message naming the primitive and the place, or undefined when the
 * arguments are within bounds. Work is bounded by `maxNodes` whatever the input.
 */
export function argBoundsIssue(name: string, args: unknown, limits: ArgLimits = DEFAULT_ARG_LIMITS): string | undefined {
  const stack: Frame[] = [{ value: args, depth: 0 }];
  let nodes = 0;
  let chars = 0;
  const tooMany = () => `${name}: arguments hold more than ${limits.maxNodes.toLocaleString('en')} values`;
  const tooLong = () => `${name}: arguments hold more than ${limits.maxChars.toLocaleString('en')} characters or bytes`;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (++nodes > limits.maxNodes) return tooMany();
    if (typeof value === 'string') {
      chars += value.length;
      if (chars > limits.maxChars) return tooLong();
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (ArrayBuffer.isView(value)) {
      chars += value.byteLength;
      if (chars > limits.maxChars) return tooLong();
      continue;
    }
    if (depth >= limits.maxDepth) return `${name}: ${pathOf(frame)} is nested deeper than ${limits.maxDepth} levels`;
    if (Array.isArray(value)) {
      const n = value.length;
      if (n > limits.maxArrayLength) {
        return `${name}: ${pathOf(frame)} has ${n.toLocaleString('en')} elements (at most ${limits.maxArrayLength.toLocaleString('en')})`;
      }
      if (nodes + stack.length + n > limits.maxNodes) return tooMany();
      for (let i = 0; i < n; i++) {
        if (!(i in value)) return `${name}: ${pathOf({ value: undefined, depth, parent: frame, key: i })} is a hole (the array has missing elements)`;
      }
      for (let i = n - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, parent: frame, key: i });
      continue;
    }
    let keys = 0;
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (++keys > limits.maxKeys) return `${name}: ${pathOf(frame)} has more than ${limits.maxKeys} keys`;
      chars += key.length;
      if (chars > limits.maxChars) return tooLong();
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: frame, key });
    }
  }
  return undefined;
}

interface Frame {
  value: unknown;
  depth: number;
  parent?: Frame;
  key?: string | number;
}

/** Where a value sits, e.g. "argument 1[3].vector"; built only for a message. */
function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) {
    if (f.parent.parent === undefined && typeof f.key === 'number') parts.push(`argument ${f.key + 1}`);
    else parts.push(typeof f.key === 'number' ? `[${f.key}]` : `.${String(f.key).slice(0, 40)}`);
  }
  return parts.length === 0 ? 'the arguments' : parts.reverse().join('');
}
