// The page's entry: where the data comes from (the viewer's server, followed live over server-sent events, or the
// blob a static report inlined), what is selected, and drawing the header, the tree, the chart and the action log.
(function (A) {
  'use strict';
  const { el, fmt } = A;
  const $ = (id) => document.getElementById(id);

  async function getJson(url) {
    const res = await fetch(url, { cache: 'no-store' });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
    return body;
  }

  /** Data from the viewer's server; details and evidence do not change once written, so they are kept. */
  function serverSource() {
    const kept = new Map();
    const once = (key, load) => {
      if (!kept.has(key))
        kept.set(
          key,
          load().catch((err) => (kept.delete(key), Promise.reject(err))),
        );
      return kept.get(key);
    };
    return {
      live: true,
      run: () => getJson('api/run'),
      node: (id) => once(`node:${id}`, () => getJson(`api/node?id=${encodeURIComponent(id)}`)),
      failure: (step) => once(`failure:${step}`, () => getJson(`api/failure?step=${step}`)),
      noop: (index) => once(`noop:${index}`, () => getJson(`api/noop?index=${index}`)),
      evidence: (node, evidence) =>
        once(`evidence:${evidence}`, () =>
          getJson(`api/evidence?node=${encodeURIComponent(node)}&evidence=${encodeURIComponent(evidence)}`),
        ),
      image: (file) => `files/${file.split('/').map(encodeURIComponent).join('/')}`,
      subscribe(onRun, onProblem, onConnection) {
        const events = new window.EventSource('events');
        events.addEventListener('run', (e) => onRun(JSON.parse(e.data)));
        events.addEventListener('problem', (e) => onProblem(JSON.parse(e.data).message));
        events.addEventListener('open', () => onConnection(true));
        events.addEventListener('error', () => onConnection(false));
      },
    };
  }

  /** Data inlined by `automemo report --html`. */
  function inlineSource(bundle) {
    // A report keeps each task's explanation once (bundle.explanations) and per task what its payload holds of it.
    const explanations = bundle.explanations || {};
    const explained = (ev) => ({
      ...ev,
      tasks: ev.tasks.map((t) =>
        t.explanation && explanations[t.taskId]
          ? { ...t, explanation: { ...explanations[t.taskId], ...t.explanation } }
          : t,
      ),
    });
    const missing = (what) => Promise.reject(new Error(`${what} is not in this report`));
    return {
      live: false,
      bundle,
      run: () => Promise.resolve(bundle.run),
      node: (id) => (bundle.nodes[id] ? Promise.resolve(bundle.nodes[id]) : missing(`node ${id}`)),
      failure: (step) =>
        bundle.failures[String(step)]
          ? Promise.resolve(bundle.failures[String(step)])
          : missing(`the failure at step ${step}`),
      noop: (index) =>
        bundle.noops && bundle.noops[String(index)]
          ? Promise.resolve(bundle.noops[String(index)])
          : missing(`no-op child ${index}`),
      evidence: (_node, evidence) =>
        bundle.evidence[evidence]
          ? Promise.resolve(explained(bundle.evidence[evidence]))
          : missing(`evidence ${evidence}`),
      image: (file) => bundle.images[file] || null,
      subscribe() {},
    };
  }

  const blob = $('automemo-data');
  const source = blob && blob.textContent.trim() ? inlineSource(JSON.parse(blob.textContent)) : serverSource();
  const state = {
    selected: null,
    failure: null,
    noop: null,
    compareA: null,
    compareB: null,
    evidence: null,
    connected: null,
    problem: null,
  };
  let run = null;
  let panelKey = '';

  const ctx = {
    get run() {
      return run;
    },
    source,
    state,
    select(id) {
      state.selected = id;
      state.failure = null;
      state.noop = null;
      state.evidence = null;
      draw();
      if (id) $('panel').scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
    selectFailure(step) {
      state.failure = step;
      state.selected = null;
      state.noop = null;
      draw();
      $('panel').scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
    selectNoop(index) {
      state.noop = index;
      state.failure = null;
      state.selected = null;
      draw();
      $('panel').scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
    compare(a, b) {
      state.compareA = a;
      state.compareB = b;
      draw();
      drawCompare();
      if (a && b) $('compare-pane').scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
  };

  // ---- header, banners ----

  function drawHeader() {
    const o = run.info.options;
    const env = run.info.env || {};
    const winner = run.nodes.find((n) => n.id === run.winner);
    const status = source.live
      ? run.status + (state.connected === false ? ' (reconnecting…)' : run.status === 'running' ? ' (live)' : '')
      : `${run.status} (static report, ${source.bundle.generatedAt})`;
    A.clear($('run-line')).append(
      el('b', {}, run.name),
      ` · ${o.env} (${env.mode || '?'}${env.reward ? `: ${env.reward}` : ''}) · meta ${o.meta} · policy ${o.policy} · select ${o.selection} · `,
      `step ${run.completedSteps}/${o.budget} · N = ${run.N} · `,
      el('span', { class: `status status-${run.status.replace(' ', '-')}`, id: 'status' }, status),
      // A winner only once the run finished: before, the pick may still change.
      winner
        ? ` · ${run.digest.pickWord} ${winner.id}: mean ${fmt(winner.q)}, LCB ${fmt(winner.lcb === null ? null : A.bound(winner.lcb))}${winner.testScore !== undefined ? `, test ${fmt(winner.testScore)}` : ''}`
        : '',
      run.spend.calls
        ? ` · ${run.spend.calls} meta calls, ${run.spend.tokens} tokens${run.spend.usd !== null ? `, $${run.spend.usd.toFixed(4)}` : ''}`
        : '',
    );
    document.title = `automemo — ${run.name}`;
  }

  /** What to know first, in sentences: the pick against the best starting program, the children, repeated ideas. */
  function drawSummary() {
    const box = A.clear($('summary'));
    const lines = run.digest.lines;
    box.hidden = !lines.length;
    box.append(
      el(
        'ul',
        {},
        lines.map((l, i) => el('li', { class: i === 0 ? 'headline' : '' }, l)),
      ),
    );
  }

  /** The action log's numbers, named: the two upper confidence bounds the policy compares, with their terms. */
  function drawFormulas() {
    const u = run.ucb;
    A.clear($('formulas')).append(
      el(
        'div',
        { class: 'formulas' },
        el(
          'p',
          {},
          el('b', {}, 'U_eval'),
          ' = Q + c_e·√(ln N / n) — re-evaluate a program; ',
          el('b', {}, 'U_gen'),
          ' = Q + G + c_g·√(ln N / (1 + m)) — write a child of it. The step takes the highest.',
        ),
        el(
          'p',
          { class: 'muted' },
          `Q: the program's mean validation score; n: its evaluations; N: all evaluations so far; m: its evaluated children; G = (S + κ·π) / (m + κ): what its children gained over it (S: their summed gains over it; π = λ·max(0, Q − Q(root))·min(1, c_e / (Q_best − Q(root))), a prior for programs above the root; m counts children that changed nothing too). This run: c_e = ${u.cEval}, c_g = ${u.cGen}, λ = ${u.lambda}, κ = ${u.kappa}. U values rank actions; they are not rewards and may pass 1.`,
        ),
      ),
    );
  }

  function drawBanners() {
    const box = A.clear($('banners'));
    if (state.problem) box.append(el('p', { class: 'banner error' }, state.problem));
    if (run.validation) {
      const v = run.validation;
      const line = `Validation: ${v.tasks} tasks, ${v.perEvaluation} per evaluation (${v.samples} sample${v.samples === 1 ? '' : 's'}); a score on ${v.perEvaluation} tasks is known to ±${fmt(v.resolvable)}, so closer programs are not told apart.`;
      box.append(
        el(
          'p',
          { class: `banner ${v.warning ? 'warn' : 'info'}`, id: 'validation' },
          v.warning ? `${line} Warning: ${v.warning}.` : line,
        ),
      );
    }
    if (run.final && run.final.tieNote)
      box.append(el('p', { class: 'banner warn', id: 'tie' }, `Tie: ${run.final.tieNote}.`));
    if (run.screen)
      box.append(
        el(
          'p',
          { class: 'banner info', id: 'screen' },
          `Step 0 screened ${run.screen.length} standard designs on validation: ${run.screen.map((d) => `${d.design} ${fmt(d.score)}${d.kept ? ' (kept as a seed)' : ''}`).join(', ')}.`,
        ),
      );
    if (run.torn)
      box.append(
        el(
          'p',
          { class: 'banner warn', id: 'torn' },
          `The journal's last line (line ${run.torn.line}) is cut off — a process was killed mid-write, or a write is in progress. It is not counted.`,
        ),
      );
    if (run.inFlight) {
      const f = run.inFlight;
      const what = `${f.kind === 'generate' ? 'writing a child of' : 're-evaluating'} ${f.node}, started ${new Date(f.since).toLocaleTimeString()}`;
      box.append(
        el(
          'p',
          { class: 'banner info' },
          run.status === 'running'
            ? `step ${f.step} in progress: ${what}`
            : `step ${f.step} was cut short (${what}); a resume runs it again`,
        ),
      );
    }
    if (!source.live) {
      const b = source.bundle;
      const l = b.limits;
      box.append(
        el(
          'p',
          { class: 'banner info', id: 'report-note' },
          `Static report of ${run.dir}. Payloads are clipped to ${l.payloadChars} characters and agent steps to ${l.stepChars}. `,
          b.omittedImages
            ? el(
                'b',
                { id: 'images-omitted' },
                `${b.omittedImages} image${b.omittedImages === 1 ? ' was' : 's were'} left out (over ${Math.round(l.imageBytes / 1000)} kB each, or past ${Math.round(l.totalImageBytes / 1e6)} MB in all); automemo view shows them.`,
              )
            : `${Object.keys(b.images).length} images inlined.`,
        ),
      );
    }
  }

  // ---- action log ----

  function drawLog() {
    const box = A.clear($('log'));
    if (!run.actions.length && !run.inFlight) {
      box.append(el('p', { class: 'muted' }, 'no step taken yet (step 0 evaluates the root and the seeds)'));
      return;
    }
    // Fixed column widths and wrapping cells: every column stays inside the pane, whatever the node ids and reasons.
    const columns = [
      ['step', 'step', 'the step'],
      ['chosen', 'chosen', 'the action the policy took'],
      ['score', 'its U', 'the chosen action’s U_eval or U_gen'],
      ['best-evaluate', 'best other U_eval', 'the highest U_eval among the actions not taken'],
      ['best-generate', 'best other U_gen', 'the highest U_gen among the actions not taken'],
      [
        'outcome',
        'outcome (reward)',
        'what the step led to: the validation score (mean reward) of the child written or of the re-evaluation',
      ],
    ];
    const table = el(
      'table',
      { class: 'actions' },
      el(
        'colgroup',
        {},
        columns.map(([c]) => el('col', { class: `col-${c}` })),
      ),
      el(
        'tr',
        {},
        columns.map(([, label, title]) => el('th', { title }, label)),
      ),
    );
    const best = (a, kind) => {
      const others = a.candidates.filter((c) => c.kind === kind && !(c.kind === a.kind && c.node === a.node));
      if (!others.length) return '—';
      const top = others.reduce((x, y) => (y.score > x.score ? y : x));
      return `${fmt(top.score)} ${top.node}`;
    };
    for (const a of [...run.actions].reverse()) {
      const result = a.unscored ? `unscored: ${A.short(a.unscored, 80)}` : fmt(a.result);
      const tries = a.noops ? ` (after ${a.noops} no-op${a.noops === 1 ? '' : 's'})` : '';
      const noopText =
        a.noops > 1 ? `${a.noops} no-ops, the last: ${A.short(a.noop, 60)}` : `no-op: ${A.short(a.noop, 60)}`;
      const child = a.child && run.nodes.find((n) => n.id === a.child);
      const edit = child && child.edit ? el('div', { class: 'muted child-edit' }, child.edit.label) : null;
      const outcome =
        a.kind === 'generate'
          ? a.child
            ? `→ ${a.child}: ${result}${tries}`
            : a.failed
              ? `failed: ${A.short(a.failed, 60)}${tries}`
              : a.noop
                ? noopText
                : ''
          : `→ ${result}`;
      const row = el(
        'tr',
        { class: `action ${a.kind}`, 'data-step': a.step, tabindex: 0 },
        el('td', { class: 'num' }, a.step),
        el(
          'td',
          { title: a.retry || '' },
          `${a.kind === 'generate' ? 'generate from' : a.retry ? 'retry' : 'evaluate'} `,
          el('b', {}, a.node),
        ),
        el('td', { class: 'num' }, a.retry ? '—' : fmt(a.score)),
        el('td', { class: 'num' }, best(a, 'evaluate')),
        el('td', { class: 'num' }, best(a, 'generate')),
        el('td', { class: a.failed || a.unscored ? 'bad' : '' }, outcome, edit),
      );
      A.toggleRowBelow(row, () => el('tr', { class: 'candidates-row' }, el('td', { colspan: 6 }, candidates(a))));
      table.append(row);
    }
    box.append(table, el('p', { class: 'hint' }, 'click a step for every candidate’s U_eval and U_gen'));
  }

  /** Every node's evaluate and generate score at that step, the chosen one marked. */
  function candidates(a) {
    if (a.retry) return el('p', { class: 'muted' }, `No policy choice: ${a.retry}. The step evaluates it again.`);
    const nodes = [...new Set(a.candidates.map((c) => c.node))];
    const score = (node, kind) => {
      const c = a.candidates.find((x) => x.node === node && x.kind === kind);
      if (!c) return el('td', { class: 'num muted' }, '—');
      return el('td', { class: `num${node === a.node && kind === a.kind ? ' chosen' : ''}` }, fmt(c.score));
    };
    return el(
      'table',
      { class: 'candidates' },
      el('tr', {}, el('th', {}, 'node'), el('th', {}, 'U_eval'), el('th', {}, 'U_gen')),
      nodes.map((n) => el('tr', {}, el('td', {}, n), score(n, 'evaluate'), score(n, 'generate'))),
    );
  }

  // ---- tooltip ----

  function hover(text, event) {
    const tip = $('tooltip');
    if (!text) {
      tip.hidden = true;
      return;
    }
    tip.textContent = text;
    tip.hidden = false;
    tip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8)}px`;
    tip.style.top = `${event.clientY + 14}px`;
  }

  // ---- drawing ----

  function drawPanel() {
    const box = $('panel');
    const n = state.selected && run.nodes.find((x) => x.id === state.selected);
    // Redrawn only when what it shows changed, so a live update keeps open rows and scroll positions.
    const key =
      state.failure !== null
        ? `failure:${state.failure}`
        : state.noop !== null
          ? `noop:${state.noop}`
          : n
            ? `${n.id}:${n.n}:${n.q}:${n.testScore}:${n.hasMeta}:${n.evaluations.length}:${run.status}`
            : '';
    if (key === panelKey) return;
    panelKey = key;
    A.clear(box);
    box.hidden = !key;
    if (state.failure !== null) A.panels.failurePanel(ctx, box, state.failure);
    else if (state.noop !== null) A.panels.noopPanel(ctx, box, state.noop);
    else if (n) A.panels.nodePanel(ctx, box, n.id);
  }

  function drawCompareControls() {
    for (const [id, key] of [
      ['cmp-a', 'compareA'],
      ['cmp-b', 'compareB'],
    ]) {
      const select = A.clear($(id));
      select.append(
        el('option', { value: '' }, '—'),
        ...run.nodes.map((n) =>
          el('option', { value: n.id, selected: state[key] === n.id }, `${n.id} (${fmt(n.q)}, n=${n.n})`),
        ),
      );
    }
  }

  let compareKey = '';
  function drawCompare() {
    const a = run.nodes.find((n) => n.id === state.compareA);
    const b = run.nodes.find((n) => n.id === state.compareB);
    const key = a && b ? `${a.id}:${a.n}|${b.id}:${b.n}` : '';
    if (key === compareKey) return;
    compareKey = key;
    A.panels.comparePanel(ctx, A.clear($('compare')), state.compareA, state.compareB);
  }

  /** The programs table's order, kept across live redraws: best validation mean first. */
  const programSort = { key: 'q', dir: -1 };

  function draw() {
    drawHeader();
    drawSummary();
    drawBanners();
    const { lo, hi } = A.tree.render($('tree'), run, state, {
      select: ctx.select,
      failure: ctx.selectFailure,
      noop: ctx.selectNoop,
      compare: (id) => (state.compareA && !state.compareB ? ctx.compare(state.compareA, id) : ctx.compare(id, null)),
      hover,
    });
    A.tree.legend($('legend'), lo, hi, run);
    A.chart.render($('chart'), run, hover);
    drawFormulas();
    drawLog();
    A.programs.render(ctx, $('programs'), programSort);
    drawPanel();
    drawCompareControls();
    document.body.dataset.nodes = String(run.nodes.length);
    document.body.dataset.ready = 'true';
  }

  function update(next) {
    run = next;
    state.problem = null;
    draw();
    drawCompare();
  }

  $('cmp-go').addEventListener('click', () => ctx.compare($('cmp-a').value || null, $('cmp-b').value || null));

  source.run().then(
    (first) => {
      update(first);
      source.subscribe(
        update,
        (message) => {
          state.problem = message;
          if (run) drawBanners();
        },
        (connected) => {
          state.connected = connected;
          if (run) drawHeader();
        },
      );
    },
    (err) => {
      A.clear($('run-line')).append(el('span', { class: 'error' }, `could not load the run: ${err.message}`));
    },
  );
})((window.Automemo = window.Automemo || {}));
