// DOM helpers shared by the page's scripts. Everything from the run (payloads, code, answers) goes in as text,
// never as markup.
(function (A) {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';

  function append(node, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof window.Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function set(node, props) {
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    return node;
  }

  /** An HTML element: el('td', {class: 'x'}, 'text', child). */
  A.el = (tag, props, ...children) => append(set(document.createElement(tag), props), children);
  /** An SVG element. */
  A.svg = (tag, props, ...children) => append(set(document.createElementNS(SVG, tag), props), children);
  A.clear = (node) => {
    while (node.firstChild) node.firstChild.remove();
    return node;
  };
  /** Clicking `row` opens a row under it made by `make()` (a <tr>); clicking again closes it. */
  A.toggleRowBelow = (row, make) => {
    let open = null;
    row.addEventListener('click', () => {
      if (open) {
        open.remove();
        open = null;
        return;
      }
      open = make();
      row.after(open);
    });
  };
  /** A number with `digits` decimals; a value that rounds to zero prints as 0, never -0.00. */
  A.fmt = (x, digits = 3) => {
    if (x === null || x === undefined || Number.isNaN(Number(x))) return '—';
    const text = Number(x).toFixed(digits);
    return Number(text) === 0 ? text.replace('-', '') : text;
  };
  A.short = (s, n) => (s && s.length > n ? `${s.slice(0, n - 1)}…` : s || '');

  /**
   * Writes `text` into the SVG <text> element as at most `maxLines` lines (tspans `lineHeight` apart) no wider than
   * `width`, broken after spaces, hyphens, dots, colons and commas (inside a word only when it is wider than a line).
   * What does not fit ends in "…", and the element gets the whole text as its <title>. Measures in the page, so the
   * element must be in the document. Returns the lines written.
   */
  A.fitText = (textEl, text, width, maxLines, lineHeight) => {
    const x = textEl.getAttribute('x') || '0';
    const probe = A.svg('tspan', { x });
    textEl.append(probe);
    const fits = (s) => {
      probe.textContent = s;
      return probe.getComputedTextLength() <= width + 0.5;
    };
    const lines = [];
    let line = '';
    const push = (tok) => {
      if (fits(line + tok)) return void (line += tok);
      if (line) lines.push(line.trimEnd());
      line = '';
      // A token wider than a line: broken where it must.
      for (const ch of tok.trimStart()) {
        if (line && !fits(line + ch)) {
          lines.push(line);
          line = '';
        }
        line += ch;
      }
    };
    for (const tok of String(text).match(/[^\s\-_.:,/]+[\s\-_.:,/]*|[\s\-_.:,/]+/g) || ['']) push(tok);
    if (line.trim() || !lines.length) lines.push(line.trimEnd());
    const cut = lines.length > maxLines;
    const shown = lines.slice(0, maxLines);
    if (cut) {
      let last = `${shown[maxLines - 1]} ${lines.slice(maxLines).join(' ')}`;
      while (last && !fits(`${last}…`)) last = last.slice(0, -1);
      shown[maxLines - 1] = `${last.trimEnd()}…`;
    }
    probe.remove();
    shown.forEach((l, i) => textEl.append(A.svg('tspan', { x, dy: i === 0 ? 0 : lineHeight }, l)));
    if (cut) textEl.append(A.svg('title', {}, text));
    textEl.dataset.full = text;
    return shown.length;
  };

  /**
   * A bound as the page shows it. Rewards lie in [0, 1], so a bound past either end says no more than the end: it is
   * shown clipped (the search ranks by the unclipped value; the tooltips say when a bound was clipped).
   */
  A.bound = (x) => Math.min(1, Math.max(0, x));
  /** A node's confidence interval, mean ± half-width, clipped to [0, 1]: {low, high, clipped}, or null unevaluated. */
  A.interval = (n) => {
    if (n.q === null || n.q === undefined || n.ci === null || n.ci === undefined) return null;
    const low = A.bound(n.q - n.ci);
    const high = A.bound(n.q + n.ci);
    return { low, high, clipped: low !== n.q - n.ci || high !== n.q + n.ci };
  };
  A.intervalText = (n) => {
    const i = A.interval(n);
    return i ? `${A.fmt(i.low)} … ${A.fmt(i.high)}` : '—';
  };

  /** The colour scale's stops: a mean of 0 is red, 0.5 yellow, 1 green, whatever the run's range. */
  A.SCALE = [
    [0, [215, 48, 39]],
    [0.5, [254, 224, 139]],
    [1, [26, 152, 80]],
  ];
  /** Mean score → colour on the absolute scale [0, 1] (the legend shows it), so colours compare across runs. */
  A.scoreColour = (q) => {
    if (q === null || q === undefined || Number.isNaN(Number(q))) return '#c8c8c8';
    const t = A.bound(q);
    const [[t0, a], [t1, b]] = t < 0.5 ? [A.SCALE[0], A.SCALE[1]] : [A.SCALE[1], A.SCALE[2]];
    const u = (t - t0) / (t1 - t0);
    return `rgb(${a.map((x, i) => Math.round(x + (b[i] - x) * u)).join(',')})`;
  };
})((window.Automemo = window.Automemo || {}));
