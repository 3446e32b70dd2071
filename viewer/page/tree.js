// The search tree as SVG: root on top, children below their parent in the order they were written; a node's area
// grows with its evaluations and its colour is its mean score on the absolute scale [0, 1] (the legend draws it).
// Under each node: its id, its mean, and what it is — a child's edit in a few words (kind and key), a seed's design.
// Siblings that tried one idea (the same crossover with different tails, one setting at different values) sit side by
// side in a box that names the idea and how many tries it had; each child then says only what it tried within it.
// The pick has a double ring ("winner" once the run finished, "leading" before); failed generations hang under the
// parent they were tried from, as red crosses, and children that changed nothing (no-ops) as hollow circles marked `=`.
// Labels wrap to their column and end in "…" past two lines, the whole text on hover and in the node's panel.
(function (A) {
  'use strict';
  const DX = 104;
  const PAD = 24;
  /** The width a label may take: its column, less a gap. */
  const LABEL_W = DX - 10;
  /** Below a node: id (2 lines), mean, edit (2 lines); then a group's caption. */
  const LABEL_H = 70;
  const CAPTION_H = 32;

  const radius = (n) => Math.min(30, 8 + 5 * Math.sqrt(n));

  /** What a node is, in a few words, under its id. */
  function whatLabel(run, n, grouped) {
    if (n.kind === 'root') return 'no memory';
    if (n.kind === 'seed') {
      // A seed given as a path is named by its file.
      const design = (n.design || '').split('/').pop().replace(/\.ts$/, '');
      return design && !n.id.endsWith(design) ? design : 'seed';
    }
    if (!n.edit) return '';
    return grouped ? n.edit.tail : n.edit.label;
  }

  /**
   * Positions: leaves left to right, a parent centred over its children; siblings of one idea next to each other
   * (in the order the idea was first tried, then by step). Returns the groups of two or more siblings too.
   */
  function layout(run) {
    const kids = new Map();
    const items = [
      ...run.nodes.map((n) => ({
        key: n.id,
        parent: n.parent,
        step: n.step,
        node: n,
        group: n.edit ? `${n.parent}\u0000${n.edit.group}` : `node:${n.id}`,
      })),
      ...run.failures.map((f) => ({
        key: `failed:${f.step}`,
        parent: f.parent,
        step: f.step,
        failure: f,
        group: `failed:${f.step}`,
      })),
      ...(run.noops || []).map((x) => ({
        key: `noop:${x.index}`,
        parent: x.parent,
        step: x.step,
        noop: x,
        group: `noop:${x.index}`,
      })),
    ];
    for (const it of items) {
      if (it.parent === null) continue;
      if (!kids.has(it.parent)) kids.set(it.parent, []);
      kids.get(it.parent).push(it);
    }
    const groups = [];
    for (const list of kids.values()) {
      const first = new Map();
      for (const it of [...list].sort((a, b) => a.step - b.step))
        if (!first.has(it.group)) first.set(it.group, it.step);
      list.sort(
        (a, b) =>
          first.get(a.group) - first.get(b.group) ||
          a.group.localeCompare(b.group) ||
          a.step - b.step ||
          a.key.localeCompare(b.key),
      );
      const byGroup = new Map();
      for (const it of list) if (it.node && it.node.edit) byGroup.set(it.group, [...(byGroup.get(it.group) || []), it]);
      for (const members of byGroup.values()) if (members.length > 1) groups.push(members);
    }
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
    return { pos, width: Math.max(1, leaf), depth: depthMax, groups };
  }

  function tooltipText(run, n) {
    const pick = run.status === 'finished' ? 'winner' : 'leading';
    const lines = [`${n.id} (${n.kind}${n.parent ? `, child of ${n.parent}` : ''}, step ${n.step})`];
    if (n.kind === 'seed' && n.design) lines.push(`standard design: ${n.design}`);
    if (n.edit) lines.push(`edit: ${n.edit.label}`);
    if (n.q === null) lines.push('not evaluated yet');
    else {
      lines.push(`mean ${A.fmt(n.q)} over n = ${n.n} evaluation${n.n === 1 ? '' : 's'} (N = ${run.N})`);
      const i = A.interval(n);
      lines.push(
        `confidence interval ${A.intervalText(n)}  (mean ± c_e·√(ln N / n) = ± ${A.fmt(n.ci)}${i.clipped ? ', clipped to [0, 1]' : ''})`,
      );
      lines.push(
        `LCB ${A.fmt(A.bound(n.lcb))}${n.lcb < 0 ? ' (below 0 before clipping)' : ''}${n.id === run.winner ? `  ← ${pick}` : ''}`,
      );
    }
    lines.push(`test ${n.testScore !== undefined ? A.fmt(n.testScore) : 'not run'}`);
    for (const u of n.unscored || []) lines.push(`unscored at step ${u.step}: ${A.short(u.reason, 120)}`);
    if (n.description) lines.push(A.short(n.description, 240));
    return lines.join('\n');
  }

  /** Draws the tree; `on.select(id)`, `on.failure(step)`, `on.noop(index)`, `on.compare(id)`, `on.hover(text, event)`. */
  function render(svgEl, run, state, on) {
    A.clear(svgEl);
    const { pos, width, depth, groups } = layout(run);
    const tied = new Set((run.final && run.final.tied) || []);
    const pickWord = run.status === 'finished' ? 'winner' : 'leading';
    // Rows far enough apart for the largest circles, the pick's label above, the labels and a group's caption below.
    const maxR = Math.max(8, ...run.nodes.map((n) => radius(n.n)));
    // A row with a group's box below its labels is taller by the box's caption.
    const captioned = new Set(groups.map((members) => pos.get(members[0].key).y));
    const below = (row) => maxR + LABEL_H + (captioned.has(row) ? CAPTION_H : 0);
    const rowY = [maxR + 26];
    for (let d = 1; d <= depth; d++) rowY.push(rowY[d - 1] + below(d - 1) + 56 + maxR);
    const w = PAD * 2 + width * DX;
    const h = rowY[depth] + below(depth) + 8;
    svgEl.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svgEl.setAttribute('width', String(w));
    svgEl.setAttribute('height', String(h));
    const at = (p) => ({ x: PAD + DX / 2 + p.x * DX, y: rowY[p.y] });
    const qs = run.nodes.filter((n) => n.q !== null).map((n) => n.q);
    // The run's range, for the legend only: colours are on the absolute scale.
    const lo = qs.length ? Math.min(...qs) : null;
    const hi = qs.length ? Math.max(...qs) : null;
    const bands = A.svg('g', { class: 'groups' });
    const edges = A.svg('g', { class: 'edges' });
    const marks = A.svg('g', { class: 'marks' });
    svgEl.append(bands, edges, marks);
    const grouped = new Set(groups.flat().map((it) => it.key));
    for (const members of groups)
      marksOfGroup(
        bands,
        members.map((it) => ({ it, ...at(pos.get(it.key)) })),
        maxR,
        run,
        on,
      );
    // Edges run from under the parent's labels (and its group's caption) to above the child, never through text.
    const above = (it) =>
      it.failure || it.noop ? 11 : radius(it.node.n) + (it.node.id === run.winner ? 20 : grouped.has(it.key) ? 10 : 2);
    for (const p of pos.values()) {
      const parent = p.it.parent !== null ? pos.get(p.it.parent) : undefined;
      if (!parent) continue;
      const a = at(parent);
      const b = at(p);
      a.y += below(parent.y) + 2;
      b.y -= above(p.it);
      const mid = (a.y + b.y) / 2;
      edges.append(
        A.svg('path', {
          class: p.it.failure ? 'edge edge-failed' : p.it.noop ? 'edge edge-noop' : 'edge',
          d: `M${a.x},${a.y} C${a.x},${mid} ${b.x},${mid} ${b.x},${b.y}`,
        }),
      );
    }
    for (const p of pos.values()) {
      const { x, y } = at(p);
      if (p.it.failure) marks.append(failedMark(p.it.failure, x, y, state, on));
      else if (p.it.noop) marks.append(noopMark(p.it.noop, x, y, state, on));
      else marks.append(nodeMark(run, p.it.node, x, y, { state, on, tied, pickWord, grouped: grouped.has(p.it.key) }));
    }
    fitLabels(svgEl);
    return { lo, hi };
  }

  function nodeMark(run, n, x, y, { state, on, tied, pickWord, grouped }) {
    const r = radius(n.n);
    const classes = ['node', `kind-${n.kind}`];
    if (n.id === run.winner) classes.push('winner');
    if (tied.has(n.id)) classes.push('tied');
    if (state.selected === n.id) classes.push('selected');
    const busy = run.status === 'running' && run.inFlight && run.inFlight.node === n.id;
    if (busy) classes.push('busy');
    const g = A.svg('g', { class: classes.join(' '), 'data-id': n.id, transform: `translate(${x},${y})`, tabindex: 0 });
    // The labels belong to the node too: one clickable box from the circle's top to the last label line.
    g.append(A.svg('rect', { class: 'hit', x: -DX / 2 + 3, y: -r, width: DX - 6, height: r + LABEL_H }));
    if (n.id === run.winner) g.append(A.svg('circle', { r: r + 6, class: 'winner-ring' }));
    if (tied.has(n.id)) g.append(A.svg('circle', { r: r + 5, class: 'tied-ring' }));
    if (busy) g.append(A.svg('circle', { r: r + 11, class: 'busy-ring' }));
    g.append(A.svg('circle', { r, class: 'dot', fill: A.scoreColour(n.q) }));
    g.append(A.svg('text', { y: 4, class: 'n' }, n.n ? String(n.n) : '·'));
    marksAppendLabels(g, run, n, r, grouped);
    for (const [tag, id] of [
      ['A', state.compareA],
      ['B', state.compareB],
    ]) {
      if (id === n.id) g.append(A.svg('text', { x: r + 4, y: -r + 2, class: 'badge' }, tag));
    }
    if (n.id === run.winner) g.append(A.svg('text', { x: 0, y: -r - 10, class: 'winner-label' }, pickWord));
    g.addEventListener('click', (e) => (e.shiftKey ? on.compare(n.id) : on.select(n.id)));
    g.addEventListener('keydown', (e) => e.key === 'Enter' && on.select(n.id));
    g.addEventListener('mousemove', (e) => on.hover(tooltipText(run, n), e));
    g.addEventListener('mouseleave', () => on.hover(null));
    return g;
  }

  /** Id (two lines at most), mean, and what the node is (two lines at most), fitted to the column once drawn. */
  function marksAppendLabels(g, run, n, r, grouped) {
    // Measured after the mark is in the document: wrapped then, below.
    // Clear of the pick's and the tied rings (r + 6).
    const label = A.svg('text', { x: 0, y: r + 18, class: 'label' });
    const score = A.svg('text', { x: 0, class: 'score' }, n.q === null ? '—' : A.fmt(n.q));
    const what = A.svg('text', { x: 0, class: `what${grouped ? ' tail' : ''}` });
    g.append(label, score, what);
    g.fit = () => {
      const lines = A.fitText(label, n.id, LABEL_W, 2, 12);
      score.setAttribute('y', String(r + 18 + 12 * lines));
      const text = whatLabel(run, n, grouped);
      what.setAttribute('y', String(r + 18 + 12 * lines + 12));
      if (text) A.fitText(what, text, LABEL_W, 2, 11);
    };
  }

  /** Siblings that tried one idea: a box around them naming it, and how their tries went against the parent. */
  function marksOfGroup(layer, members, maxR, run, on) {
    const xs = members.map((m) => m.x);
    const y = members[0].y;
    const left = Math.min(...xs) - DX / 2 + 3;
    const right = Math.max(...xs) + DX / 2 - 3;
    const first = members[0].it.node;
    const parent = run.nodes.find((n) => n.id === first.parent);
    const scores = members.map((m) => m.it.node.q).filter((q) => q !== null);
    const worse = parent && parent.q !== null ? scores.filter((q) => q < parent.q - 1e-12).length : 0;
    const verdict =
      parent && parent.q !== null && scores.length
        ? `, ${worse === scores.length ? 'all' : `${worse} of ${scores.length}`} below ${parent.id}'s ${A.fmt(parent.q)}`
        : '';
    const caption = `${members.length} tries of ${first.edit.groupLabel}${verdict}`;
    const g = A.svg('g', {
      class: 'idea',
      'data-group': first.edit.group,
      'data-parent': first.parent,
      'data-size': members.length,
    });
    g.append(
      A.svg('rect', {
        x: left,
        y: y - maxR - 6,
        width: right - left,
        height: 2 * maxR + LABEL_H + CAPTION_H - 2,
        rx: 6,
        class: 'idea-box',
      }),
    );
    const text = A.svg('text', { x: left + 6, y: y + maxR + LABEL_H + CAPTION_H - 24, class: 'idea-caption' });
    g.append(text);
    g.fit = () => A.fitText(text, caption, right - left - 12, 2, 12);
    g.addEventListener('mousemove', (e) =>
      on.hover(
        `${members.length} children of ${first.parent} tried one idea: ${first.edit.groupLabel}\n${members.map((m) => `${m.it.node.id}: ${m.it.node.edit.tail} → ${A.fmt(m.it.node.q)}`).join('\n')}`,
        e,
      ),
    );
    g.addEventListener('mouseleave', () => on.hover(null));
    layer.append(g);
  }

  function failedMark(f, x, y, state, on) {
    const g = A.svg(
      'g',
      {
        class: `failed${state.failure === f.step ? ' selected' : ''}`,
        'data-step': f.step,
        transform: `translate(${x},${y})`,
        tabindex: 0,
        onclick: () => on.failure(f.step),
      },
      A.svg('circle', { r: 11, class: 'failed-hit' }),
      A.svg('path', { d: 'M-7,-7 L7,7 M7,-7 L-7,7' }),
      A.svg('text', { y: 24, class: 'label' }, `step ${f.step}`),
    );
    g.addEventListener('mousemove', (e) =>
      on.hover(
        `generation failed at step ${f.step} (from ${f.parent}, ${f.attempts} attempt${f.attempts === 1 ? '' : 's'})\n${A.short(f.reason, 240)}`,
        e,
      ),
    );
    g.addEventListener('mouseleave', () => on.hover(null));
    return g;
  }

  /** A child that changed nothing: a hollow dashed circle marked `=`, labelled, its reason on hover. */
  function noopMark(x, cx, cy, state, on) {
    const g = A.svg(
      'g',
      {
        class: `noop${state.noop === x.index ? ' selected' : ''}`,
        'data-noop': x.index,
        'data-step': x.step,
        transform: `translate(${cx},${cy})`,
        tabindex: 0,
        onclick: () => on.noop(x.index),
      },
      A.svg('circle', { r: 10, class: 'noop-ring' }),
      A.svg('text', { y: 4, class: 'noop-sign' }, '='),
      A.svg('text', { y: 24, class: 'label' }, `no-op · ${x.step}`),
    );
    const tip = [
      `no-op child at step ${x.step} (from ${x.parent}): changed nothing, not evaluated`,
      x.same ? `same as ${x.same}` : '',
      A.short(x.reason, 240),
      x.description ? A.short(x.description, 160) : '',
    ];
    g.addEventListener('keydown', (e) => e.key === 'Enter' && on.noop(x.index));
    g.addEventListener('mousemove', (e) => on.hover(tip.filter(Boolean).join('\n'), e));
    g.addEventListener('mouseleave', () => on.hover(null));
    return g;
  }

  /** Fits every label of a drawn tree to its column (they measure themselves: the tree must be in the document). */
  function fitLabels(svgEl) {
    for (const g of svgEl.querySelectorAll('g.node, g.idea')) if (g.fit) g.fit();
  }

  /** The colour scale (absolute: 0 to 1, the same in every run), where this run's means lie on it, and the marks. */
  function legend(el, lo, hi, run) {
    A.clear(el);
    const gradient = A.SCALE.map(([t]) => `${A.scoreColour(t)} ${t * 100}%`).join(', ');
    const ticks = [0, 0.25, 0.5, 0.75, 1];
    const range =
      lo === null
        ? null
        : A.el('span', {
            class: 'scale-range',
            style: `left:${A.bound(lo) * 100}%;width:${Math.max(0.5, (A.bound(hi) - A.bound(lo)) * 100)}%`,
            title: `this run's means: ${A.fmt(lo)} … ${A.fmt(hi)}`,
          });
    const pick = run && run.status === 'finished' ? 'the winner' : 'the leading program (the run has not finished)';
    el.append(
      A.el('span', { class: 'scale-title' }, 'mean score, absolute scale '),
      A.el(
        'span',
        { class: 'scale', 'data-low': '0', 'data-high': '1' },
        A.el('span', { class: 'scale-bar', style: `background:linear-gradient(to right, ${gradient})` }, range),
        A.el(
          'span',
          { class: 'scale-ticks' },
          ticks.map((t) => A.el('span', { class: 'scale-tick', style: `left:${t * 100}%` }, A.fmt(t, 2))),
        ),
      ),
      A.el(
        'span',
        { class: 'legend-note' },
        `${lo === null ? '' : ` this run: ${A.fmt(lo, 2)}–${A.fmt(hi, 2)} (bracket)`} · double ring: ${pick} · dotted ring: cannot be told apart from it · box: siblings that tried one idea · ✕: failed generation · ○ with =: no-op child (changed nothing, not evaluated) · number: evaluations`,
      ),
    );
  }

  A.tree = { render, legend, layout, fitLabels };
})((window.Automemo = window.Automemo || {}));
