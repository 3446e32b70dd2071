// The search over steps: every validation evaluation as a point at the step that ran it — the root and the seeds at
// step 0 (and the standard designs the screen scored and did not keep), each child's first score, re-evaluations
// and the final phase's confirmations in marks of their own — with the best mean and the best lower confidence bound
// (the program the search would hand over if it stopped there) as lines. A run whose children all collapse shows
// them as a cloud under the lines. The axis is the reward's range, 0 to 1: a bound below 0 (early, when few
// evaluations make the interval wide) is drawn at 0, and its point's tooltip says so. Hovering a point names it.
(function (A) {
  'use strict';
  const W = 460;
  const H = 230;
  // The key sits above the plot, clear of lines at 1.00: its height (M.t) grows with the kinds of marks it names.
  const MARGIN = { l: 40, r: 12, b: 28 };
  /** Marks by what was evaluated: shape and class. */
  const MARKS = {
    root: { label: 'root', shape: 'diamond' },
    seed: { label: 'seed', shape: 'square' },
    screen: { label: 'screened, not kept', shape: 'square-open' },
    child: { label: 'child (first score)', shape: 'circle' },
    're-evaluation': { label: 're-evaluation', shape: 'ring' },
    final: { label: 'final phase', shape: 'triangle' },
  };

  function mark(kind, cx, cy, props) {
    const s = 4;
    const cls = `pt-eval pt-${kind.replace(/[^a-z]/g, '')}`;
    const shape = MARKS[kind].shape;
    if (shape === 'circle' || shape === 'ring') return A.svg('circle', { cx, cy, r: s, class: cls, ...props });
    if (shape === 'square' || shape === 'square-open')
      return A.svg('rect', { x: cx - s, y: cy - s, width: 2 * s, height: 2 * s, class: cls, ...props });
    if (shape === 'diamond')
      return A.svg('path', {
        d: `M${cx},${cy - s - 1} L${cx + s + 1},${cy} L${cx},${cy + s + 1} L${cx - s - 1},${cy} Z`,
        class: cls,
        ...props,
      });
    return A.svg('path', {
      d: `M${cx},${cy - s - 1} L${cx + s + 1},${cy + s} L${cx - s - 1},${cy + s} Z`,
      class: cls,
      ...props,
    });
  }

  /** Every evaluation to draw: the run's points, and the designs the screen scored and did not keep. */
  function evaluations(run) {
    const points = (run.points || []).map((p) => ({ ...p }));
    for (const d of run.screen || [])
      if (!d.kept && d.score !== null)
        points.push({ step: 0, node: d.design, kind: 'screen', score: d.score, tasks: d.tasks });
    return points;
  }

  function pointText(run, p) {
    const n = run.nodes.find((x) => x.id === p.node);
    const what =
      p.kind === 'screen'
        ? `${p.node} (standard design, screened at step 0, not kept)`
        : `${p.node}${n && n.parent ? ` (child of ${n.parent}${n.edit ? `: ${n.edit.label}` : ''})` : n && n.kind === 'seed' ? ' (seed)' : ''}`;
    const when = p.kind === 'final' ? 'final phase' : `step ${p.step}`;
    return `${what}\n${MARKS[p.kind].label}, ${when}: ${A.fmt(p.score)} on ${p.tasks} tasks`;
  }

  /** Draws the chart; `hover(text, event)` shows a point's text. */
  function render(svgEl, run, hover) {
    A.clear(svgEl);
    const steps = run.steps;
    svgEl.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const points = evaluations(run);
    const kinds = Object.keys(MARKS).filter((kd) => points.some((p) => p.kind === kd));
    const M = { ...MARGIN, t: 24 + 14 * Math.ceil(kinds.length / 3) };
    if (!steps.length && !points.length) {
      svgEl.append(A.svg('text', { x: W / 2, y: H / 2, class: 'empty' }, 'no evaluation yet'));
      return;
    }
    const last = Math.max(1, ...steps.map((s) => s.step), ...points.map((p) => p.step));
    // The final phase's evaluations (step -1) are drawn one column past the last step.
    const hasFinal = points.some((p) => p.step < 0);
    const maxStep = hasFinal ? last + 1 : last;
    const stepOf = (s) => (s < 0 ? last + 1 : s);
    const x = (s) => M.l + ((W - M.l - M.r) * stepOf(s)) / maxStep;
    const y = (v) => H - M.b - (H - M.t - M.b) * A.bound(v);
    const axes = A.svg('g', { class: 'axes' });
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      axes.append(A.svg('line', { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), class: 'grid' }));
      axes.append(A.svg('text', { x: M.l - 6, y: y(v) + 4, class: 'tick y' }, A.fmt(v, 2)));
    }
    const every = Math.max(1, Math.ceil(last / 10));
    for (let s = 0; s <= last; s += every)
      axes.append(A.svg('text', { x: x(s), y: H - M.b + 16, class: 'tick x' }, String(s)));
    if (hasFinal) axes.append(A.svg('text', { x: x(-1), y: H - M.b + 16, class: 'tick x' }, 'final'));
    axes.append(A.svg('text', { x: M.l - 8, y: H - M.b + 16, class: 'axis-label' }, 'step'));
    svgEl.append(axes);
    const line = (key, cls) => {
      // A step function: the best value holds until a later step changes it.
      let d = '';
      steps.forEach((s, i) => {
        d += i === 0 ? `M${x(s.step)},${y(s[key])}` : ` H${x(s.step)} V${y(s[key])}`;
      });
      if (d) svgEl.append(A.svg('path', { d, class: `line ${cls}` }));
    };
    line('bestMean', 'best-mean');
    line('bestLcb', 'best-lcb');
    for (const s of steps) {
      svgEl.append(
        A.svg(
          'circle',
          { cx: x(s.step), cy: y(s.bestMean), r: 2, class: 'pt best-mean', 'data-step': s.step },
          A.svg('title', {}, `step ${s.step}: best mean ${A.fmt(s.bestMean)} (${s.bestMeanNode}), N = ${s.N}`),
        ),
      );
      svgEl.append(
        A.svg(
          'circle',
          { cx: x(s.step), cy: y(s.bestLcb), r: 2, class: 'pt best-lcb' },
          A.svg(
            'title',
            {},
            `step ${s.step}: best LCB ${A.fmt(A.bound(s.bestLcb))} (${s.bestLcbNode})${s.bestLcb < 0 ? ', below 0 before clipping' : ''}`,
          ),
        ),
      );
    }
    // Points of one step spread sideways a little, so the seeds of step 0 do not hide each other.
    const perStep = new Map();
    for (const p of points) perStep.set(p.step, (perStep.get(p.step) || 0) + 1);
    const seen = new Map();
    const spread = Math.min(14, (W - M.l - M.r) / maxStep / 2.5);
    const layer = A.svg('g', { class: 'evaluations' });
    for (const p of points) {
      const k = seen.get(p.step) || 0;
      seen.set(p.step, k + 1);
      const count = perStep.get(p.step);
      // Within the plot: the first and last columns spread inwards only.
      const lo = Math.max(-spread, M.l + 5 - x(p.step));
      const hi = Math.min(spread, W - M.r - 5 - x(p.step));
      const dx = count > 1 ? lo + ((hi - lo) * k) / (count - 1) : Math.min(hi, Math.max(lo, 0));
      const text = pointText(run, p);
      const m = mark(p.kind, x(p.step) + dx, y(p.score), {
        'data-node': p.node,
        'data-kind': p.kind,
        'data-step': p.step,
        tabindex: 0,
      });
      m.append(A.svg('title', {}, text));
      if (hover) {
        m.addEventListener('mousemove', (e) => hover(text, e));
        m.addEventListener('mouseleave', () => hover(null));
      }
      layer.append(m);
    }
    svgEl.append(layer);
    // The key above the plot: the two lines, then the marks this run has, three to a row.
    const key = A.svg('g', { class: 'key', transform: `translate(${M.l},10)` });
    key.append(
      A.svg('line', { x1: 0, x2: 16, y1: 0, y2: 0, class: 'line best-mean' }),
      A.svg('text', { x: 20, y: 4 }, 'best mean'),
    );
    key.append(
      A.svg('line', { x1: 140, x2: 156, y1: 0, y2: 0, class: 'line best-lcb' }),
      A.svg('text', { x: 160, y: 4 }, 'best LCB'),
    );
    kinds.forEach((kd, i) => {
      const px = (i % 3) * 140 + 6;
      const py = 14 * (1 + Math.floor(i / 3));
      key.append(mark(kd, px, py, {}), A.svg('text', { x: px + 10, y: py + 4 }, MARKS[kd].label));
    });
    svgEl.append(key);
  }

  A.chart = { render };
})((window.Automemo = window.Automemo || {}));
