// A line diff for the page: common prefix and suffix trimmed, then a longest-common-subsequence table over what is
// left (programs are small; past 4 million cells the middle is shown as replaced whole), grouped into hunks with
// context like `diff -u`: in each changed region the removed lines come before the added ones.
(function (A) {
  'use strict';
  const MAX_CELLS = 4_000_000;

  /** Ops over two texts: {t: ' ' | '-' | '+', s: line, a: line number in a, b: line number in b}. */
  function lineDiff(textA, textB) {
    const a = textA === '' ? [] : textA.replace(/\n$/, '').split('\n');
    const b = textB === '' ? [] : textB.replace(/\n$/, '').split('\n');
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA--;
      endB--;
    }
    const ops = [];
    for (let i = 0; i < start; i++) ops.push({ t: ' ', s: a[i], a: i + 1, b: i + 1 });
    ops.push(...middle(a, b, start, endA, endB));
    for (let i = endA, j = endB; i < a.length; i++, j++) ops.push({ t: ' ', s: a[i], a: i + 1, b: j + 1 });
    return removalsFirst(ops);
  }

  /** Each run of changed lines as `diff -u` prints it: its `-` lines, then its `+` lines, each in order. */
  function removalsFirst(ops) {
    const out = [];
    let i = 0;
    while (i < ops.length) {
      if (ops[i].t === ' ') {
        out.push(ops[i++]);
        continue;
      }
      const run = [];
      while (i < ops.length && ops[i].t !== ' ') run.push(ops[i++]);
      out.push(...run.filter((o) => o.t === '-'), ...run.filter((o) => o.t === '+'));
    }
    return out;
  }

  function middle(a, b, start, endA, endB) {
    const n = endA - start;
    const m = endB - start;
    const out = [];
    if (n * m > MAX_CELLS) {
      for (let i = start; i < endA; i++) out.push({ t: '-', s: a[i], a: i + 1 });
      for (let j = start; j < endB; j++) out.push({ t: '+', s: b[j], b: j + 1 });
      return out;
    }
    // lcs[i][j]: the longest common subsequence of a[start+i..] and b[start+j..], flattened.
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        out.push({ t: ' ', s: a[start + i], a: start + i + 1, b: start + j + 1 });
        i++;
        j++;
      } else if (j < m && (i === n || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])) {
        out.push({ t: '+', s: b[start + j], b: start + j + 1 });
        j++;
      } else {
        out.push({ t: '-', s: a[start + i], a: start + i + 1 });
        i++;
      }
    }
    return out;
  }

  /** Changed regions with `context` lines around them: [{header: '@@ -a,n +b,m @@', ops}]. */
  function hunks(ops, context = 3) {
    const changed = ops.map((o, i) => (o.t === ' ' ? -1 : i)).filter((i) => i >= 0);
    const out = [];
    let k = 0;
    while (k < changed.length) {
      const from = Math.max(0, changed[k] - context);
      let to = Math.min(ops.length, changed[k] + context + 1);
      while (k + 1 < changed.length && changed[k + 1] - context <= to) {
        k++;
        to = Math.min(ops.length, changed[k] + context + 1);
      }
      k++;
      const slice = ops.slice(from, to);
      const firstA = slice.find((o) => o.a !== undefined);
      const firstB = slice.find((o) => o.b !== undefined);
      const countA = slice.filter((o) => o.t !== '+').length;
      const countB = slice.filter((o) => o.t !== '-').length;
      out.push({ header: `@@ -${firstA ? firstA.a : 0},${countA} +${firstB ? firstB.b : 0},${countB} @@`, ops: slice });
    }
    return out;
  }

  /** Per file of two programs: status (added, removed, changed, same), its hunks and counts of lines. */
  function filesDiff(filesA, filesB) {
    const names = [...new Set([...Object.keys(filesA || {}), ...Object.keys(filesB || {})])].sort((x, y) => (x === 'index.ts' ? -1 : y === 'index.ts' ? 1 : x.localeCompare(y)));
    return names.map((name) => {
      const a = (filesA || {})[name];
      const b = (filesB || {})[name];
      const ops = lineDiff(a ?? '', b ?? '');
      const status = a === undefined ? 'added' : b === undefined ? 'removed' : a === b ? 'same' : 'changed';
      return { name, status, hunks: hunks(ops), added: ops.filter((o) => o.t === '+').length, removed: ops.filter((o) => o.t === '-').length };
    });
  }

  A.diff = { lineDiff, hunks, filesDiff };
})((window.Automemo = window.Automemo || {}));
