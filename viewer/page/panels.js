// The detail views: a node's panel (scores, the meta agent's feedback, the diff against its parent, its source, its
// evaluations and their per-task outcomes), a failed generation's panel, a no-op child's, and two nodes side by side.
// `ctx` carries the run, the data source, the selection state and the callbacks of view.js.
(function (A) {
  'use strict';
  const { el, fmt } = A;

  const nodeOf = (run, id) => run.nodes.find((n) => n.id === id);
  const nodeLink = (ctx, id) =>
    el('a', { href: '#', class: 'node-link', onclick: (e) => (e.preventDefault(), ctx.select(id)) }, id);
  const ciText = (n) => {
    const i = A.interval(n);
    return i ? `${A.intervalText(n)}${i.clipped ? ' (clipped to [0, 1])' : ''}` : '—';
  };
  const lcbText = (n) => (n.lcb === null ? '—' : `${fmt(A.bound(n.lcb))}${n.lcb < 0 ? ' (clipped: below 0)' : ''}`);
  const loading = () => el('p', { class: 'loading' }, 'loading…');
  const problem = (err) => el('p', { class: 'error' }, `could not load: ${err.message || err}`);

  /** A box filled by `fill(value, box)` once `promise` resolves (errors shown in place). */
  function later(promise, fill) {
    const box = el('div', { class: 'later' }, loading());
    promise.then(
      (v) => fill(v, A.clear(box)),
      (err) => A.clear(box).append(problem(err)),
    );
    return box;
  }

  /** A section with a heading whose body arrives later. */
  const section = (cls, title, promise, fill) =>
    el('section', { class: cls }, el('h3', {}, title), later(promise, fill));

  // ---- diff ----

  function renderDiff(filesA, filesB, labelA, labelB) {
    const files = A.diff.filesDiff(filesA, filesB);
    const box = el('div', { class: 'diff' });
    const changed = files.filter((f) => f.status !== 'same');
    box.append(
      el(
        'p',
        { class: 'diff-summary' },
        changed.length
          ? `${labelA} → ${labelB}: ${changed.length} file${changed.length === 1 ? '' : 's'} differ`
          : `${labelA} and ${labelB} have the same source`,
      ),
    );
    for (const f of changed) {
      const pre = el('pre', { class: 'diff-body' });
      for (const h of f.hunks) {
        pre.append(el('span', { class: 'dl hunk' }, h.header));
        for (const o of h.ops)
          pre.append(el('span', { class: `dl ${o.t === '+' ? 'add' : o.t === '-' ? 'del' : 'ctx'}` }, `${o.t} ${o.s}`));
      }
      box.append(
        el(
          'div',
          { class: 'diff-file' },
          el('h4', {}, `${f.name} `, el('span', { class: 'muted' }, `(${f.status}, +${f.added} −${f.removed})`)),
          pre,
        ),
      );
    }
    const same = files.filter((f) => f.status === 'same').map((f) => f.name);
    if (same.length) box.append(el('p', { class: 'muted' }, `unchanged: ${same.join(', ')}`));
    return box;
  }

  function renderSource(files) {
    const names = Object.keys(files).sort((x, y) =>
      x === 'index.ts' ? -1 : y === 'index.ts' ? 1 : x.localeCompare(y),
    );
    if (!names.length) return el('p', { class: 'muted' }, 'no source files found');
    return el(
      'div',
      { class: 'source' },
      names.map((name, i) =>
        el(
          'details',
          i === 0 ? { open: true } : {},
          el('summary', {}, `${name} (${files[name].split('\n').length} lines)`),
          el('pre', { class: 'code' }, files[name]),
        ),
      ),
    );
  }

  // ---- feedback, examinations, model calls ----

  function renderFeedback(detail) {
    const box = el('div', { class: 'feedback' });
    const meta = detail.meta;
    if (detail.metaError) box.append(el('p', { class: 'error' }, detail.metaError));
    if (!meta) {
      box.append(
        el('p', { class: 'muted' }, 'no meta.json (roots and seeds have none, nor do runs written before it existed)'),
      );
      return box;
    }
    box.append(
      el('p', {}, `${meta.agent} meta agent, ${meta.attempts} quick examination${meta.attempts === 1 ? '' : 's'}`),
    );
    const fb = meta.feedback;
    if (!fb) return box;
    box.append(el('h4', {}, 'Proposal'), el('pre', { class: 'prose' }, fb.proposal));
    if (fb.clusters.length) {
      box.append(
        el('h4', {}, 'Clusters of the parent’s evidence'),
        el(
          'table',
          { class: 'clusters' },
          el(
            'tr',
            {},
            el('th', {}, 'scenario'),
            el('th', {}, 'tasks'),
            el('th', {}, 'mean reward'),
            el('th', {}, 'finding'),
          ),
          fb.clusters.map((c) =>
            el(
              'tr',
              {},
              el('td', {}, c.scenario),
              el('td', { class: 'num' }, c.tasks ?? '—'),
              el('td', { class: 'num' }, fmt(c.meanReward, 2)),
              el(
                'td',
                {},
                c.summary,
                c.analysis
                  ? el(
                      'details',
                      {},
                      el('summary', {}, 'analysis'),
                      el('pre', { class: 'json' }, JSON.stringify(c.analysis, null, 2)),
                    )
                  : null,
              ),
            ),
          ),
        ),
      );
    }
    if (fb.synthesis)
      box.append(
        el('h4', {}, 'Synthesis'),
        el('p', {}, fb.synthesis.summary),
        el(
          'ol',
          {},
          fb.synthesis.changes.map((c) =>
            el('li', {}, c.change, c.why ? el('span', { class: 'muted' }, ` — ${c.why}`) : null),
          ),
        ),
      );
    if (fb.findings) {
      // The rule the child follows is a finding of the diagnosis, or a move of its own (a crossover into a pipeline,
      // a structural edit): then the findings are what was read, not what was done, and the page says so.
      const followed = fb.findings.some((f) => f.rule === fb.chosen);
      if (fb.chosen && !followed)
        box.append(
          el(
            'p',
            { class: 'followed' },
            el('b', {}, 'Followed: '),
            fb.chosen,
            el('span', { class: 'muted' }, ' — not one of the findings below'),
          ),
        );
      box.append(
        el('h4', {}, followed || !fb.chosen ? 'Diagnosis' : 'Diagnosis (what the evidence showed; not the move made)'),
        el(
          'ul',
          { class: `findings${followed || !fb.chosen ? '' : ' not-followed'}` },
          fb.findings.map((f) =>
            el(
              'li',
              { class: f.rule === fb.chosen ? 'chosen' : '' },
              `${f.rule} (${f.direction}, weight ${fmt(f.weight, 2)}): ${f.detail}`,
              f.rule === fb.chosen ? ' ← followed' : '',
            ),
          ),
        ),
      );
    }
    return box;
  }

  function renderStepLog(detail) {
    const box = el('div', { class: 'steplog' });
    const cl = detail.clustering;
    if (cl) {
      box.append(
        el(
          'h4',
          {},
          cl.source === 'model' ? `Clusters (CluE pool, ${cl.clusters.length})` : 'Clusters (metadata groups)',
        ),
        el(
          'ul',
          { class: 'clusters' },
          cl.groups.map((g) =>
            el(
              'li',
              {},
              el('b', {}, g.group),
              ` — ${g.tasks.length} task${g.tasks.length === 1 ? '' : 's'}: `,
              el('span', { class: 'muted' }, g.tasks.slice(0, 12).join(', ') + (g.tasks.length > 12 ? ', …' : '')),
            ),
          ),
        ),
      );
      if (cl.source === 'model')
        box.append(
          el(
            'ul',
            { class: 'pool' },
            cl.clusters.map((c) =>
              el(
                'li',
                {},
                `${c.id}: ${c.label}${c.description ? ` — ${c.description}` : ''} (${c.tasks} task${c.tasks === 1 ? '' : 's'} so far)`,
              ),
            ),
          ),
        );
      if (cl.notes.length)
        box.append(
          el(
            'ul',
            { class: 'notes' },
            cl.notes.map((n) => el('li', { class: 'muted' }, n)),
          ),
        );
    }
    if (detail.quickExams.length) {
      box.append(
        el('h4', {}, 'Quick examinations'),
        el(
          'ul',
          {},
          detail.quickExams.map((q) =>
            el(
              'li',
              { class: q.passed ? 'ok' : 'bad' },
              `attempt ${q.attempt} (${q.dir}): ${q.passed ? 'passed' : `failed — ${q.failure || ''}`}`,
            ),
          ),
        ),
      );
    }
    if (detail.metaCalls.length) {
      box.append(
        el('h4', {}, 'Meta-model calls'),
        el(
          'table',
          {},
          el(
            'tr',
            {},
            el('th', {}, 'purpose'),
            el('th', {}, 'model'),
            el('th', {}, 'tokens in (cached)/out'),
            el('th', {}, 'usd'),
            el('th', {}, 'ms'),
            el('th', {}, 'ok'),
          ),
          detail.metaCalls.map((c) =>
            el(
              'tr',
              {},
              el(
                'td',
                {},
                c.reused
                  ? `${c.purpose} (reused: step ${c.reused.step}'s reply)`
                  : c.cut
                    ? `${c.purpose} (cut at max_tokens)`
                    : c.purpose,
              ),
              el('td', {}, c.model),
              el(
                'td',
                { class: 'num' },
                `${c.promptTokens}${c.cachedTokens ? ` (${c.cachedTokens})` : ''}/${c.completionTokens}`,
              ),
              el('td', { class: 'num' }, c.usd === null ? '—' : c.usd.toFixed(4)),
              el('td', { class: 'num' }, c.ms),
              el('td', {}, c.ok ? 'yes' : `no: ${c.error || ''}`),
            ),
          ),
        ),
      );
    }
    return box;
  }

  // ---- per-task outcomes ----

  function image(ctx, ev, id) {
    const file = ev.images[id];
    const src = file ? ctx.source.image(file) : null;
    if (!src)
      return el(
        'span',
        { class: 'image-missing' },
        file ? `[image ${id}: left out of this report]` : `[image ${id}: no file]`,
      );
    return el(
      'a',
      { href: src, target: '_blank', rel: 'noopener' },
      el('img', { src, alt: id, title: id, loading: 'lazy' }),
    );
  }

  function taskDetail(ctx, ev, t) {
    const box = el('div', { class: 'task-detail' });
    box.append(
      el(
        'p',
        { class: 'task-question' },
        el('b', {}, 'question: '),
        t.question === undefined
          ? el('span', { class: 'muted' }, 'not recorded (runs written before questions were kept in the evidence)')
          : t.question,
      ),
    );
    if (t.programError) box.append(el('p', { class: 'error' }, `program error: ${t.programError}`));
    if (t.infraError) box.append(el('p', { class: 'error' }, `infrastructure error: ${t.infraError}`));
    if (t.note) box.append(el('p', {}, el('b', {}, 'checker: '), t.note));
    if (t.answer !== undefined) box.append(el('p', {}, el('b', {}, 'answer: '), t.answer));
    if (t.metrics && Object.keys(t.metrics).length)
      box.append(
        el(
          'p',
          { class: 'muted' },
          Object.entries(t.metrics)
            .map(([k, v]) => `${k} ${fmt(v)}`)
            .join(' · '),
        ),
      );
    const p = t.payload;
    const payload = el('div', { class: 'payload-col' });
    payload.append(
      el(
        'h5',
        {},
        `Payload the program returned (${t.payloadChars ?? (p ? p.text.length : 0)} characters${t.truncated ? ', cut to the budget' : ''}, ${p ? p.images.length : 0} images)`,
      ),
    );
    payload.append(el('pre', { class: 'payload' }, p && p.text ? marked(p.text, t.explanation) : '(empty)'));
    if (p && p.images.length)
      payload.append(
        el(
          'div',
          { class: 'images' },
          p.images.map((id) => image(ctx, ev, id)),
        ),
      );
    if (p && p.metadata !== undefined)
      payload.append(
        el(
          'details',
          {},
          el('summary', {}, 'payload metadata'),
          el('pre', { class: 'json' }, JSON.stringify(p.metadata, null, 2)),
        ),
      );
    box.append(el('div', { class: 'payload-and-truth' }, payload, explanationBox(t.explanation)));
    const tr = t.trajectory;
    if (tr) {
      if (tr.images && tr.images.length)
        box.append(
          el('h5', {}, 'Task images'),
          el(
            'div',
            { class: 'images' },
            tr.images.map((id) => image(ctx, ev, id)),
          ),
        );
      box.append(el('h5', {}, `Trajectory (${tr.steps.length} step${tr.steps.length === 1 ? '' : 's'})`));
      box.append(
        el(
          'ol',
          { class: 'steps' },
          tr.steps.map((s) =>
            el(
              'li',
              {},
              s.thought ? el('div', { class: 'thought' }, s.thought) : null,
              el('div', { class: 'step-action' }, s.action),
              s.observation ? el('div', { class: 'observation' }, s.observation) : null,
              s.images && s.images.length
                ? el(
                    'div',
                    { class: 'images' },
                    s.images.map((id) => image(ctx, ev, id)),
                  )
                : null,
            ),
          ),
        ),
      );
    }
    return box;
  }

  /** The payload's text with the evidence and gold answers it holds highlighted (the marks are the viewer's). */
  function marked(text, ex) {
    if (!ex || !ex.marks.length) return text;
    const parts = [];
    let at = 0;
    for (const m of ex.marks) {
      if (m.start < at || m.end > text.length) continue;
      parts.push(text.slice(at, m.start));
      const what = m.kind === 'evidence' ? `evidence ${ex.evidence[m.index].id || m.index + 1}` : 'gold answer';
      parts.push(el('mark', { class: `found-${m.kind}`, title: what }, text.slice(m.start, m.end)));
      at = m.end;
    }
    parts.push(text.slice(at));
    return parts;
  }

  /** What the environment says the answer is, beside the payload: each gold answer and evidence, found or not. */
  function explanationBox(ex) {
    const box = el('div', { class: 'truth-col' }, el('h5', {}, 'Ground truth (the environment’s explanation)'));
    if (!ex)
      return (
        box.append(
          el(
            'p',
            { class: 'muted' },
            'not recorded (the environment explains nothing, or the run was written before evidence kept it)',
          ),
        ),
        box
      );
    const found = (yes) =>
      el('span', { class: yes ? 'found yes' : 'found no' }, yes ? '✓ in the payload' : '✗ not in the payload');
    if (ex.gold.length)
      box.append(
        el(
          'p',
          { class: 'gold' },
          el('b', {}, ex.gold.length === 1 ? 'gold: ' : 'gold answers: '),
          ex.gold.map((g, i) => el('span', { class: 'gold-item' }, el('q', {}, g), ' ', found(ex.goldFound[i]))),
        ),
      );
    if (ex.choices.length) box.append(el('p', { class: 'choices' }, el('b', {}, 'choices: '), ex.choices.join(' · ')));
    if (ex.evidence.length) {
      const held = ex.evidenceFound.filter(Boolean).length;
      box.append(
        el('p', {}, el('b', {}, `evidence (${held} of ${ex.evidence.length} in the payload):`)),
        el(
          'ul',
          { class: 'evidence' },
          ex.evidence.map((e, i) =>
            el(
              'li',
              { class: ex.evidenceFound[i] ? 'held' : 'missed' },
              e.id ? el('code', {}, e.id) : null,
              e.id ? ' ' : '',
              e.text,
              ' ',
              found(ex.evidenceFound[i]),
            ),
          ),
        ),
      );
    }
    if (!ex.gold.length && !ex.evidence.length) box.append(el('p', { class: 'explain-text' }, ex.text));
    else
      box.append(
        el(
          'details',
          {},
          el('summary', {}, 'as the environment wrote it'),
          el('p', { class: 'explain-text' }, ex.text),
        ),
      );
    return box;
  }

  function renderOutcomes(ctx, ev) {
    const box = el('div', { class: 'outcomes' });
    const scored = ev.tasks.filter((t) => t.reward !== null);
    const mean = scored.length ? scored.reduce((s, t) => s + t.reward, 0) / scored.length : null;
    box.append(
      el(
        'p',
        {},
        `${ev.tasks.length} tasks, mean reward ${fmt(mean)}${ev.unreadable ? ` · ${ev.unreadable} unreadable lines` : ''} · evidence ${ev.evidence}`,
      ),
    );
    // What could not be read, and why: an unreadable evidence file must never look like an empty, healthy one.
    if (ev.problems && ev.problems.length)
      box.append(
        el(
          'ul',
          { class: 'banner warn evidence-problems' },
          ev.problems.map((p) => el('li', {}, p)),
        ),
      );
    const table = el(
      'table',
      { class: 'tasks' },
      el(
        'tr',
        {},
        el('th', {}, 'task'),
        el('th', {}, 'question'),
        el('th', {}, 'scenario'),
        el('th', {}, 'reward'),
        el('th', {}, 'payload'),
        el('th', {}, 'answer'),
        el('th', {}, 'gold · evidence held'),
      ),
    );
    for (const t of ev.tasks) {
      const row = el(
        'tr',
        {
          class: `task ${t.reward === null ? 'infra' : t.reward >= 0.5 ? 'good' : 'poor'}`,
          'data-task': t.taskId,
          tabindex: 0,
        },
        el('td', {}, t.taskId),
        // The question, shortened in the row (the whole of what the evidence keeps is in the task's detail).
        t.question === undefined
          ? el('td', { class: 'question muted' }, 'not recorded')
          : el('td', { class: 'question', title: A.short(t.question, 600) }, A.short(t.question, 140)),
        el('td', {}, t.scenario || ''),
        el('td', { class: 'num' }, t.reward === null ? 'n/a' : fmt(t.reward, 2)),
        el(
          'td',
          { class: 'num' },
          `${t.payloadChars ?? 0}${t.truncated ? ' (cut)' : ''}${t.payloadImages ? ` +${t.payloadImages} img` : ''}`,
        ),
        el('td', {}, A.short(t.answer || t.programError || '', 90)),
        el('td', { class: 'truth' }, truthShort(t.explanation)),
      );
      A.toggleRowBelow(row, () => el('tr', { class: 'task-open' }, el('td', { colspan: 7 }, taskDetail(ctx, ev, t))));
      table.append(row);
    }
    box.append(table);
    return box;
  }

  /** A task row's ground truth in short: the gold answer, and how much of the evidence the payload holds. */
  function truthShort(ex) {
    if (!ex) return el('span', { class: 'muted' }, '—');
    const held = ex.evidence.length
      ? ` · ${ex.evidenceFound.filter(Boolean).length}/${ex.evidence.length} evidence`
      : '';
    return `${A.short(ex.gold.join(' | '), 60) || (ex.evidence.length ? '' : A.short(ex.text, 60))}${held}`;
  }

  function renderEvaluations(ctx, n) {
    const box = el('div', { class: 'evaluations' });
    if (!n.evaluations.length) {
      box.append(el('p', { class: 'muted' }, 'not evaluated yet'));
      return box;
    }
    const out = el('div', { class: 'eval-outcomes' });
    const show = (e) => {
      ctx.state.evidence = e.evidence;
      for (const b of box.querySelectorAll('button.eval')) b.classList.toggle('on', b.dataset.evidence === e.evidence);
      A.clear(out).append(
        later(ctx.source.evidence(n.id, e.evidence), (ev, into) => into.append(renderOutcomes(ctx, ev))),
      );
    };
    box.append(
      el(
        'div',
        { class: 'eval-buttons' },
        n.evaluations.map((e) =>
          el(
            'button',
            {
              type: 'button',
              class: `eval${e.score === null ? ' unscored' : ''}`,
              'data-evidence': e.evidence,
              onclick: () => show(e),
              title: e.unscored || '',
            },
            `${e.split === 'train' ? 'validation' : 'test'} #${e.index}: ${e.score === null ? 'unscored' : fmt(e.score)} on ${e.tasks} tasks (step ${e.step}, ${(e.ms / 1000).toFixed(1)} s)`,
          ),
        ),
      ),
      out,
    );
    show(n.evaluations.find((e) => e.evidence === ctx.state.evidence) || n.evaluations[0]);
    return box;
  }

  // ---- panels ----

  /**
   * What a child changed, typed: kind, key, from, to (and the node a crossover took from). A model's change is its
   * description, shown above: no table for it.
   */
  const editsTable = (all) => {
    const edits = all.filter((e) => e.kind !== 'model');
    const shown = (v) => (v === '' ? '—' : JSON.stringify(v));
    const head = el(
      'tr',
      {},
      ['kind', 'key', 'from', 'to', 'from node'].map((h) => el('th', {}, h)),
    );
    return el(
      'table',
      { class: 'edits' },
      head,
      edits.map((e) =>
        el(
          'tr',
          {},
          el('td', {}, e.kind),
          el('td', {}, e.key),
          el('td', {}, shown(e.from)),
          el('td', {}, shown(e.to)),
          el('td', {}, e.donor || ''),
        ),
      ),
    );
  };

  function scoreTable(run, nodes) {
    const row = (label, f) =>
      el(
        'tr',
        {},
        el('th', {}, label),
        nodes.map((n) => el('td', { class: 'num' }, f(n))),
      );
    return el(
      'table',
      { class: 'scores' },
      nodes.length > 1
        ? el(
            'tr',
            {},
            el('th', {}, ''),
            nodes.map((n) => el('th', {}, n.id)),
          )
        : null,
      row('mean', (n) => fmt(n.q)),
      row('evaluations n', (n) => n.n),
      row('confidence interval', ciText),
      row(
        'LCB',
        (n) => `${lcbText(n)}${n.id === run.winner ? ` (${run.status === 'finished' ? 'winner' : 'leading'})` : ''}`,
      ),
      row('test', (n) => (n.testScore === undefined ? 'not run' : fmt(n.testScore))),
      row('scores', (n) => n.scores.map((s) => fmt(s)).join(', ') || '—'),
    );
  }

  function nodePanel(ctx, box, id) {
    const run = ctx.run;
    const n = nodeOf(run, id);
    if (!n) return box.append(el('p', {}, `no node ${id}`));
    const parent = n.parent ? nodeOf(run, n.parent) : null;
    box.append(
      el(
        'div',
        { class: 'panel-head' },
        el('h2', {}, n.id),
        el(
          'span',
          { class: 'muted' },
          `${n.kind}${n.parent ? ', child of ' : ''}`,
          n.parent ? nodeLink(ctx, n.parent) : '',
          `, written at step ${n.step} · hash ${n.hash.slice(0, 12)}`,
        ),
        el('span', { class: 'spacer' }),
        parent
          ? el('button', { type: 'button', onclick: () => ctx.compare(parent.id, n.id) }, 'compare with parent')
          : null,
        el('button', { type: 'button', onclick: () => ctx.compare(n.id, ctx.state.compareB) }, 'set as A'),
        el('button', { type: 'button', onclick: () => ctx.compare(ctx.state.compareA, n.id) }, 'set as B'),
        el('button', { type: 'button', class: 'close', title: 'close', onclick: () => ctx.select(null) }, '×'),
      ),
    );
    if (n.edit) box.append(el('p', { class: 'edit-label' }, el('b', {}, 'edit: '), n.edit.label));
    if (n.kind === 'seed' && n.design) box.append(el('p', { class: 'edit-label' }, el('b', {}, 'seed: '), n.design));
    if (n.description) box.append(el('p', { class: 'description' }, n.description));
    // Evaluations that scored nothing are in no mean and no n: say so, with why.
    if (n.unscored && n.unscored.length) {
      box.append(
        el(
          'ul',
          { class: 'unscored' },
          n.unscored.map((u) =>
            el(
              'li',
              { class: 'error' },
              `unscored: ${u.reason} (${u.split === 'train' ? 'validation' : 'test'} evaluation at step ${u.step}; not counted)`,
            ),
          ),
        ),
      );
    }
    if (n.edits && n.edits.some((e) => e.kind !== 'model')) box.append(editsTable(n.edits));
    box.append(scoreTable(run, [n]));
    const detail = ctx.source.node(id);
    const parentDetail = parent ? ctx.source.node(parent.id) : Promise.resolve(null);
    box.append(
      el(
        'div',
        { class: 'cols' },
        section('col', 'Meta agent', detail, (d, into) => into.append(renderFeedback(d), renderStepLog(d))),
        section(
          'col diff-section',
          parent ? `Diff against its parent ${parent.id}` : 'Diff',
          Promise.all([detail, parentDetail]),
          ([d, p], into) =>
            into.append(
              p ? renderDiff(p.files, d.files, parent.id, n.id) : el('p', { class: 'muted' }, 'the root has no parent'),
            ),
        ),
      ),
      section('source-section', 'Source', detail, (d, into) => into.append(renderSource(d.files))),
      el('section', {}, el('h3', {}, 'Evaluations and per-task outcomes'), renderEvaluations(ctx, n)),
    );
  }

  function failurePanel(ctx, box, step) {
    const f = ctx.run.failures.find((x) => x.step === step);
    if (!f) return box.append(el('p', {}, `no failed generation at step ${step}`));
    box.append(
      el(
        'div',
        { class: 'panel-head' },
        el('h2', {}, `Failed generation, step ${step}`),
        el(
          'span',
          { class: 'muted' },
          'from ',
          nodeLink(ctx, f.parent),
          `, ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}`,
        ),
        el('span', { class: 'spacer' }),
        el('button', { type: 'button', class: 'close', onclick: () => ctx.select(null) }, '×'),
      ),
      el('pre', { class: 'prose error' }, f.reason),
    );
    box.append(
      later(Promise.all([ctx.source.failure(step), ctx.source.node(f.parent)]), ([d, p], into) => {
        into.append(renderStepLog(d));
        if (d.files && Object.keys(d.files).length)
          into.append(
            el('h3', {}, `Last attempt against ${f.parent}`),
            renderDiff(p.files, d.files, f.parent, `step ${step}, last attempt`),
            el('h3', {}, 'Source of the last attempt'),
            renderSource(d.files),
          );
      }),
    );
  }

  /** A child that changed nothing: why, what it tried, the step's log, and its source against its parent's if kept. */
  function noopPanel(ctx, box, index) {
    const x = (ctx.run.noops || []).find((y) => y.index === index);
    if (!x) return box.append(el('p', {}, `no no-op child ${index}`));
    box.append(
      el(
        'div',
        { class: 'panel-head' },
        el('h2', {}, `No-op child, step ${x.step}`),
        el(
          'span',
          { class: 'muted' },
          'from ',
          nodeLink(ctx, x.parent),
          ': it changed nothing, so it is not a node and was not evaluated',
          x.same ? el('span', {}, ' · same as ', nodeLink(ctx, x.same)) : '',
        ),
        el('span', { class: 'spacer' }),
        el('button', { type: 'button', class: 'close', onclick: () => ctx.select(null) }, '×'),
      ),
      el('pre', { class: 'prose noop-reason' }, x.reason),
    );
    if (x.description) box.append(el('p', { class: 'description' }, x.description));
    if (x.edits && x.edits.some((e) => e.kind !== 'model')) box.append(editsTable(x.edits));
    box.append(
      later(Promise.all([ctx.source.noop(index), ctx.source.node(x.parent)]), ([d, p], into) => {
        into.append(renderStepLog(d));
        if (d.files && Object.keys(d.files).length)
          into.append(
            el('h3', {}, `Its source against ${x.parent}`),
            renderDiff(p.files, d.files, x.parent, `no-op of step ${x.step}`),
            el('h3', {}, 'Its source'),
            renderSource(d.files),
          );
        else
          into.append(
            el(
              'p',
              { class: 'muted' },
              x.dir
                ? `its files are not kept: ${x.dir} now holds the node the step wrote after it`
                : 'its files were not recorded',
            ),
          );
      }),
    );
  }

  /** Task id → mean reward over the node's validation evaluations. */
  async function rewardsOf(ctx, n) {
    const by = new Map();
    for (const e of n.evaluations.filter((x) => x.split === 'train')) {
      const ev = await ctx.source.evidence(n.id, e.evidence);
      for (const t of ev.tasks) if (t.reward !== null) by.set(t.taskId, [...(by.get(t.taskId) || []), t.reward]);
    }
    return new Map([...by].map(([k, xs]) => [k, xs.reduce((s, x) => s + x, 0) / xs.length]));
  }

  function comparePanel(ctx, box, idA, idB) {
    const a = nodeOf(ctx.run, idA);
    const b = nodeOf(ctx.run, idB);
    if (!a || !b) return box.append(el('p', { class: 'muted' }, 'choose two nodes (or shift-click them in the tree)'));
    box.append(scoreTable(ctx.run, [a, b]));
    const tasks = section(
      'shared-section',
      'Per-task rewards on shared validation tasks',
      Promise.all([rewardsOf(ctx, a), rewardsOf(ctx, b)]),
      ([ra, rb], out) => {
        const shared = [...ra.keys()].filter((k) => rb.has(k));
        if (!shared.length) return out.append(el('p', { class: 'muted' }, 'no task was evaluated for both'));
        const rows = shared
          .map((k) => ({ k, x: ra.get(k), y: rb.get(k) }))
          .sort((p, q) => Math.abs(q.y - q.x) - Math.abs(p.y - p.x) || p.k.localeCompare(q.k));
        const better = rows.filter((r) => r.y > r.x + 1e-9).length;
        const worse = rows.filter((r) => r.y < r.x - 1e-9).length;
        const mean = (f) => rows.reduce((s, r) => s + f(r), 0) / rows.length;
        out.append(
          el(
            'p',
            { class: 'compare-summary' },
            `${rows.length} shared tasks: mean ${fmt(mean((r) => r.x))} (${a.id}) vs ${fmt(mean((r) => r.y))} (${b.id}); ${b.id} better on ${better}, worse on ${worse}, equal on ${rows.length - better - worse}`,
          ),
        );
        out.append(
          el(
            'table',
            { class: 'shared' },
            el('tr', {}, el('th', {}, 'task'), el('th', {}, a.id), el('th', {}, b.id), el('th', {}, 'Δ')),
            rows.map((r) =>
              el(
                'tr',
                { class: r.y > r.x + 1e-9 ? 'up' : r.y < r.x - 1e-9 ? 'down' : '' },
                el('td', {}, r.k),
                el('td', { class: 'num' }, fmt(r.x, 2)),
                el('td', { class: 'num' }, fmt(r.y, 2)),
                el('td', { class: 'num' }, fmt(r.y - r.x, 2)),
              ),
            ),
          ),
        );
      },
    );
    const diff = section(
      'diff-section',
      `Source diff ${a.id} → ${b.id}`,
      Promise.all([ctx.source.node(a.id), ctx.source.node(b.id)]),
      ([da, db], into) => into.append(renderDiff(da.files, db.files, a.id, b.id)),
    );
    box.append(tasks, diff);
  }

  A.panels = { nodePanel, failurePanel, noopPanel, comparePanel, renderDiff };
})((window.Automemo = window.Automemo || {}));
