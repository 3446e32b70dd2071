// The lines that differ between two texts, as Myers' O(ND) difference algorithm finds them: a shortest list of
// regions where lines of `a` are replaced by lines of `b`. Used to show a child as its edits against the parent the
// prompt already holds. Beyond MAX_D differing lines the middle is one region (a rewrite), bounding time and memory.

/** Lines a[a..aEnd) are replaced by b[b..bEnd) (either may be empty). */
export interface Change {
  a: number;
  aEnd: number;
  b: number;
  bEnd: number;
}

const MAX_D = 2000;

/** The shortest edit script of the middle parts (no common first or last line), as marks of deleted and added lines. */
function myers(a: Int32Array, b: Int32Array): { del: Uint8Array; add: Uint8Array } | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(max, MAX_D) && found < 0; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[off + k - 1] as number) < (v[off + k + 1] as number))
          ? (v[off + k + 1] as number)
          : (v[off + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  const del = new Uint8Array(n);
  const add = new Uint8Array(m);
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    // trace[d] holds v as step d found it, for k in [-d - 1, d + 1].
    const snap = trace[d] as Int32Array;
    const at = (k: number) => snap[k + d + 1] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
    }
    if (prevK === k + 1) add[prevY] = 1;
    else del[prevX] = 1;
    x = prevX;
    y = prevY;
  }
  return { del, add };
}

/** The regions where `b` differs from `a`, in order. */
export function diffLines(a: readonly string[], b: readonly string[]): Change[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0) return [{ a: pre, aEnd: pre + n, b: pre, bEnd: pre + m }];
  const ids = new Map<string, number>();
  const id = (line: string) => {
    let i = ids.get(line);
    if (i === undefined) ids.set(line, (i = ids.size));
    return i;
  };
  const A = Int32Array.from(a.slice(pre, pre + n), id);
  const B = Int32Array.from(b.slice(pre, pre + m), id);
  const marks = myers(A, B);
  if (!marks) return [{ a: pre, aEnd: pre + n, b: pre, bEnd: pre + m }];
  const out: Change[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !marks.del[i] && !marks.add[j]) {
      i++;
      j++;
      continue;
    }
    const ai = i;
    const bj = j;
    while (i < n && marks.del[i]) i++;
    while (j < m && marks.add[j]) j++;
    // Never stuck: marks that do not line up (they always do) end in one region.
    if (i === ai && j === bj) {
      i = n;
      j = m;
    }
    out.push({ a: pre + ai, aEnd: pre + i, b: pre + bj, bEnd: pre + j });
  }
  return out;
}
