// Score over steps: after each step, the best mean in the tree and the best lower confidence bound (the program
// the search would hand over if it stopped there). The axis is the reward's range, 0 to 1: a bound below 0 (early,
// when few evaluations make the interval wide) is drawn at 0, and its point's tooltip says so.
(function (A) {
  'use strict';
  const W = 460;
  const H = 200;
  // The key sits above the plot, clear of lines at 1.00.
  const M = { l: 40, r: 12, t: 28, b: 28 };

  function render(svgEl, steps) {
    A.clear(svgEl);
    svgEl.setAttribute('viewBox', `0 0 ${W} ${H}`);
    if (!steps.length) {
      svgEl.append(A.svg('text', { x: W / 2, y: H / 2, class: 'empty' }, 'no evaluation yet'));
      return;
    }
    const maxStep = Math.max(1, ...steps.map((s) => s.step));
    const x = (s) => M.l + ((W - M.l - M.r) * s) / maxStep;
    const y = (v) => H - M.b - (H - M.t - M.b) * A.bound(v);
    const axes = A.svg('g', { class: 'axes' });
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      axes.append(A.svg('line', { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), class: 'grid' }));
      axes.append(A.svg('text', { x: M.l - 6, y: y(v) + 4, class: 'tick y' }, A.fmt(v, 2)));
    }
    const every = Math.max(1, Math.ceil(maxStep / 10));
    for (let s = 0; s <= maxStep; s += every) axes.append(A.svg('text', { x: x(s), y: H - M.b + 16, class: 'tick x' }, String(s)));
    axes.append(A.svg('text', { x: W - M.r, y: H - 2, class: 'axis-label' }, 'step'));
    svgEl.append(axes);
    const line = (key, cls) => {
      // A step function: the best value holds until a later step changes it.
      let d = '';
      steps.forEach((s, i) => {
        d += i === 0 ? `M${x(s.step)},${y(s[key])}` : ` H${x(s.step)} V${y(s[key])}`;
      });
      svgEl.append(A.svg('path', { d, class: `line ${cls}` }));
    };
    line('bestMean', 'best-mean');
    line('bestLcb', 'best-lcb');
    for (const s of steps) {
      svgEl.append(A.svg('circle', { cx: x(s.step), cy: y(s.bestMean), r: 3, class: 'pt best-mean' }, A.svg('title', {}, `step ${s.step}: best mean ${A.fmt(s.bestMean)} (${s.bestMeanNode}), N = ${s.N}`)));
      svgEl.append(A.svg('circle', { cx: x(s.step), cy: y(s.bestLcb), r: 3, class: 'pt best-lcb' }, A.svg('title', {}, `step ${s.step}: best LCB ${A.fmt(A.bound(s.bestLcb))} (${s.bestLcbNode})${s.bestLcb < 0 ? ', below 0 before clipping' : ''}`)));
    }
    const key = A.svg('g', { class: 'key', transform: `translate(${M.l + 8},12)` });
    key.append(A.svg('line', { x1: 0, x2: 18, y1: 0, y2: 0, class: 'line best-mean' }), A.svg('text', { x: 22, y: 4 }, 'best mean'));
    key.append(A.svg('line', { x1: 100, x2: 118, y1: 0, y2: 0, class: 'line best-lcb' }), A.svg('text', { x: 122, y: 4 }, 'best LCB'));
    svgEl.append(key);
  }

  A.chart = { render };
})((window.Automemo = window.Automemo || {}));
