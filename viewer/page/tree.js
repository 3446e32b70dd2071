// The search tree as SVG: root on top, children below their parent in the order they were written; a node's area
// grows with its evaluations and its colour is its mean score on the absolute scale [0, 1] (the legend draws it);
// the LCB winner has a double ring; failed generations hang under the parent they were tried from, as red crosses,
// and children that changed nothing (no-ops: not nodes, never evaluated) as hollow dashed circles marked `=`.
(function (A) {
  'use strict';
  const DX = 74;
  const DY = 92;
  const PAD = 40;

  const radius = (n) => Math.min(30, 8 + 5 * Math.sqrt(n));

  /** Positions: leaves left to right in order, a parent centred over its children. */
  function layout(run) {
    const kids = new Map();
    const items = [
      ...run.nodes.map((n) => ({ key: n.id, parent: n.parent, step: n.step, node: n })),
      ...run.failures.map((f) => ({ key: `failed:${f.step}`, parent: f.parent, step: f.step, failure: f })),
      ...(run.noops || []).map((x) => ({ key: `noop:${x.index}`, parent: x.parent, step: x.step, noop: x })),
    ];
    for (const it of items) {
      if (it.parent === null) continue;
      if (!kids.has(it.parent)) kids.set(it.parent, []);
      kids.get(it.parent).push(it);
    }
    for (const list of kids.values()) list.sort((a, b) => a.step - b.step || a.key.localeCompare(b.key));
    const pos = new Map();
    let leaf = 0;
    let depthMax = 0;
    const place = (it, depth) => {
      depthMax = Math.max(depthMax, depth);
      const children = it.node ? kids.get(it.node.id) || [] : [];
      if (children.length === 0) {
        pos.set(it.key, { x: leaf++, y: depth, it });
        return;
      }
      const xs = children.map((c) => {
        place(c, depth + 1);
        return pos.get(c.key).x;
      });
      pos.set(it.key, { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: depth, it });
    };
    for (const root of items.filter((it) => it.parent === null)) place(root, 0);
    return { pos, width: Math.max(1, leaf), depth: depthMax };
  }

  function tooltipText(run, n) {
    const lines = [`${n.id} (${n.kind}${n.parent ? `, child of ${n.parent}` : ''}, step ${n.step})`];
    if (n.q === null) lines.push('not evaluated yet');
    else {
      lines.push(`mean ${A.fmt(n.q)} over n = ${n.n} evaluation${n.n === 1 ? '' : 's'} (N = ${run.N})`);
      const i = A.interval(n);
      lines.push(`confidence interval ${A.intervalText(n)}  (mean ± c_e·√(ln N / n) = ± ${A.fmt(n.ci)}${i.clipped ? ', clipped to [0, 1]' : ''})`);
      lines.push(`LCB ${A.fmt(A.bound(n.lcb))}${n.lcb < 0 ? ' (below 0 before clipping)' : ''}${n.id === run.winner ? '  ← LCB winner' : ''}`);
    }
    if (n.testScore !== undefined) lines.push(`test ${A.fmt(n.testScore)}`);
    for (const u of n.unscored || []) lines.push(`unscored at step ${u.step}: ${A.short(u.reason, 120)}`);
    if (n.description) lines.push(A.short(n.description, 160));
    return lines.join('\n');
  }

  /** Draws the tree; `on.select(id)`, `on.failure(step)`, `on.noop(index)`, `on.compare(id)`, `on.hover(text, event)`. */
  function render(svgEl, run, state, on) {
    A.clear(svgEl);
    const { pos, width, depth } = layout(run);
    // Rows far enough apart for the largest circles, their labels and the winner's label.
    const maxR = Math.max(8, ...run.nodes.map((n) => radius(n.n)));
    const dy = Math.max(DY, 2 * maxR + 66);
    const top = maxR + 26;
    const w = PAD * 2 + (width - 1) * DX + 60;
    const h = top + depth * dy + maxR + 40;
    svgEl.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svgEl.setAttribute('width', String(w));
    svgEl.setAttribute('height', String(h));
    const at = (p) => ({ x: PAD + 30 + p.x * DX, y: top + p.y * dy });
    const qs = run.nodes.filter((n) => n.q !== null).map((n) => n.q);
    // The run's range, for the legend only: colours are on the absolute scale.
    const lo = qs.length ? Math.min(...qs) : null;
    const hi = qs.length ? Math.max(...qs) : null;
    const edges = A.svg('g', { class: 'edges' });
    const marks = A.svg('g', { class: 'marks' });
    svgEl.append(edges, marks);
    // Edges run from under the parent's labels to above the child (and its winner label), never through text.
    const below = (it) => (it.node ? radius(it.node.n) + 32 : 28);
    const above = (it) => (it.failure || it.noop ? 11 : radius(it.node.n) + (it.node.id === run.winner ? 20 : 2));
    for (const p of pos.values()) {
      const parent = p.it.parent !== null ? pos.get(p.it.parent) : undefined;
      if (!parent) continue;
      const a = at(parent);
      const b = at(p);
      a.y += below(parent.it);
      b.y -= above(p.it);
      const mid = (a.y + b.y) / 2;
      edges.append(A.svg('path', { class: p.it.failure ? 'edge edge-failed' : p.it.noop ? 'edge edge-noop' : 'edge', d: `M${a.x},${a.y} C${a.x},${mid} ${b.x},${mid} ${b.x},${b.y}` }));
    }
    for (const p of pos.values()) {
      const { x, y } = at(p);
      if (p.it.failure) {
        const f = p.it.failure;
        const g = A.svg(
          'g',
          { class: `failed${state.failure === f.step ? ' selected' : ''}`, 'data-step': f.step, transform: `translate(${x},${y})`, tabindex: 0, onclick: () => on.failure(f.step) },
          A.svg('circle', { r: 11, class: 'failed-hit' }),
          A.svg('path', { d: 'M-7,-7 L7,7 M7,-7 L-7,7' }),
          A.svg('text', { y: 24, class: 'label' }, `step ${f.step}`),
        );
        g.addEventListener('mousemove', (e) => on.hover(`generation failed at step ${f.step} (from ${f.parent}, ${f.attempts} attempt${f.attempts === 1 ? '' : 's'})\n${A.short(f.reason, 240)}`, e));
        g.addEventListener('mouseleave', () => on.hover(null));
        marks.append(g);
        continue;
      }
      if (p.it.noop) {
        marks.append(noopMark(p.it.noop, x, y, state, on));
        continue;
      }
      const n = p.it.node;
      const r = radius(n.n);
      const classes = ['node', `kind-${n.kind}`];
      if (n.id === run.winner) classes.push('winner');
      if (state.selected === n.id) classes.push('selected');
      const busy = run.status === 'running' && run.inFlight && run.inFlight.node === n.id;
      if (busy) classes.push('busy');
      const g = A.svg('g', { class: classes.join(' '), 'data-id': n.id, transform: `translate(${x},${y})`, tabindex: 0 });
      // The label belongs to the node too: one clickable box from the circle's top to the score line.
      g.append(A.svg('rect', { class: 'hit', x: -Math.max(r, DX / 2 - 4), y: -r, width: 2 * Math.max(r, DX / 2 - 4), height: 2 * r + 32 }));
      if (n.id === run.winner) g.append(A.svg('circle', { r: r + 6, class: 'winner-ring' }));
      if (busy) g.append(A.svg('circle', { r: r + 11, class: 'busy-ring' }));
      g.append(A.svg('circle', { r, class: 'dot', fill: A.scoreColour(n.q) }));
      g.append(A.svg('text', { y: 4, class: 'n' }, n.n ? String(n.n) : '·'));
      g.append(A.svg('text', { y: r + 15, class: 'label' }, n.id.length > 14 ? `${n.id.slice(0, 13)}…` : n.id));
      g.append(A.svg('text', { y: r + 28, class: 'score' }, n.q === null ? '—' : A.fmt(n.q)));
      for (const [tag, id] of [
        ['A', state.compareA],
        ['B', state.compareB],
      ]) {
        if (id === n.id) g.append(A.svg('text', { x: r + 4, y: -r + 2, class: 'badge' }, tag));
      }
      if (n.id === run.winner) g.append(A.svg('text', { x: 0, y: -r - 10, class: 'winner-label' }, 'LCB winner'));
      g.addEventListener('click', (e) => (e.shiftKey ? on.compare(n.id) : on.select(n.id)));
      g.addEventListener('keydown', (e) => e.key === 'Enter' && on.select(n.id));
      g.addEventListener('mousemove', (e) => on.hover(tooltipText(run, n), e));
      g.addEventListener('mouseleave', () => on.hover(null));
      marks.append(g);
    }
    return { lo, hi };
  }

  /** A child that changed nothing: a hollow dashed circle marked `=`, labelled, its reason on hover. */
  function noopMark(x, cx, cy, state, on) {
    const g = A.svg(
      'g',
      { class: `noop${state.noop === x.index ? ' selected' : ''}`, 'data-noop': x.index, 'data-step': x.step, transform: `translate(${cx},${cy})`, tabindex: 0, onclick: () => on.noop(x.index) },
      A.svg('circle', { r: 10, class: 'noop-ring' }),
      A.svg('text', { y: 4, class: 'noop-sign' }, '='),
      A.svg('text', { y: 24, class: 'label' }, `no-op · ${x.step}`),
    );
    const tip = [`no-op child at step ${x.step} (from ${x.parent}): changed nothing, not evaluated`, x.same ? `same as ${x.same}` : '', A.short(x.reason, 240), x.description ? A.short(x.description, 160) : ''];
    g.addEventListener('keydown', (e) => e.key === 'Enter' && on.noop(x.index));
    g.addEventListener('mousemove', (e) => on.hover(tip.filter(Boolean).join('\n'), e));
    g.addEventListener('mouseleave', () => on.hover(null));
    return g;
  }

  /** The colour scale (absolute: 0 to 1, the same in every run), where this run's means lie on it, and the marks. */
  function legend(el, lo, hi) {
    A.clear(el);
    const gradient = A.SCALE.map(([t]) => `${A.scoreColour(t)} ${t * 100}%`).join(', ');
    const ticks = [0, 0.25, 0.5, 0.75, 1];
    const range = lo === null ? null : A.el('span', { class: 'scale-range', style: `left:${A.bound(lo) * 100}%;width:${Math.max(0.5, (A.bound(hi) - A.bound(lo)) * 100)}%`, title: `this run's means: ${A.fmt(lo)} … ${A.fmt(hi)}` });
    el.append(
      A.el('span', { class: 'scale-title' }, 'mean score, absolute scale '),
      A.el(
        'span',
        { class: 'scale', 'data-low': '0', 'data-high': '1' },
        A.el('span', { class: 'scale-bar', style: `background:linear-gradient(to right, ${gradient})` }, range),
        A.el('span', { class: 'scale-ticks' }, ticks.map((t) => A.el('span', { class: 'scale-tick', style: `left:${t * 100}%` }, A.fmt(t, 2)))),
      ),
      A.el('span', { class: 'legend-note' }, `${lo === null ? '' : ` this run: ${A.fmt(lo, 2)}–${A.fmt(hi, 2)} (bracket)`} · double ring: LCB winner · ✕: failed generation · ○ with =: no-op child (changed nothing, not evaluated) · number: evaluations`),
    );
  }

  A.tree = { render, legend, layout };
})((window.Automemo = window.Automemo || {}));
