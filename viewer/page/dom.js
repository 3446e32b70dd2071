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
  A.fmt = (x, digits = 3) => (x === null || x === undefined || Number.isNaN(x) ? '—' : Number(x).toFixed(digits));
  A.short = (s, n) => (s && s.length > n ? `${s.slice(0, n - 1)}…` : s || '');

  /** Mean score → colour, red (low) through yellow to green (high), over the run's range of means. */
  A.scoreColour = (q, lo, hi) => {
    if (q === null || q === undefined) return '#c8c8c8';
    const t = hi > lo ? Math.min(1, Math.max(0, (q - lo) / (hi - lo))) : 0.5;
    const stops = [
      [215, 48, 39],
      [254, 224, 139],
      [26, 152, 80],
    ];
    const [a, b, u] = t < 0.5 ? [stops[0], stops[1], t * 2] : [stops[1], stops[2], (t - 0.5) * 2];
    const mix = a.map((x, i) => Math.round(x + (b[i] - x) * u));
    return `rgb(${mix.join(',')})`;
  };
})((window.Automemo = window.Automemo || {}));
