// Every program of the run in one table: each node with its parent, its edit (a seed's design), its validation mean ±
// the half-width of its interval, its evaluations, its LCB and its test score where the final phase ran one ("not
// run" where it did not), and the standard designs the screen scored and did not keep. The pick is marked ("winner"
// once the run finished, "leading" before), and so are the programs it cannot be told apart from. Sortable: click a
// heading (again: the other way).
(function (A) {
  'use strict';
  const { el, fmt } = A;

  /** The table's rows as plain values: what the cells show and what they sort by. */
  function rows(run) {
    const tied = new Set((run.final && run.final.tied) || []);
    const out = run.nodes.map((n) => ({
      id: n.id,
      node: n,
      kind: n.kind === 'root' ? 'root (no memory)' : n.kind,
      parent: n.parent || '',
      edit: n.kind === 'seed' ? n.design || '' : n.kind === 'root' ? '' : n.edit ? n.edit.label : '',
      group: n.edit && n.parent ? `${n.parent}\u0000${n.edit.group}` : '',
      q: n.q,
      ci: n.ci,
      n: n.n,
      lcb: n.lcb,
      test: n.testScore === undefined ? null : n.testScore,
      step: n.step,
      pick: n.id === run.winner,
      tied: tied.has(n.id),
    }));
    for (const d of run.screen || []) {
      if (d.kept) continue;
      out.push({
        id: d.design,
        node: null,
        kind: 'screened design',
        parent: 'root',
        edit: `${d.design} (screened at step 0, not kept)`,
        group: '',
        q: d.score,
        ci: null,
        n: d.score === null ? 0 : 1,
        lcb: null,
        test: null,
        step: 0,
        pick: false,
        tied: false,
      });
    }
    // Siblings that tried one idea: how many tries it had, so each row says "1 of 8".
    const sizes = new Map();
    for (const r of out) if (r.group) sizes.set(r.group, (sizes.get(r.group) || 0) + 1);
    const seen = new Map();
    for (const r of out.slice().sort((a, b) => a.step - b.step)) {
      if (!r.group || sizes.get(r.group) < 2) continue;
      seen.set(r.group, (seen.get(r.group) || 0) + 1);
      r.tries = `try ${seen.get(r.group)} of ${sizes.get(r.group)} of this idea from ${r.parent}`;
    }
    return out;
  }

  const COLUMNS = [
    { key: 'id', label: 'program', sort: (r) => r.id },
    { key: 'kind', label: 'kind', sort: (r) => r.kind },
    { key: 'parent', label: 'parent', sort: (r) => r.parent },
    { key: 'edit', label: 'edit / design', sort: (r) => r.edit },
    { key: 'q', label: 'validation mean ± half-width', num: true, sort: (r) => r.q },
    { key: 'n', label: 'evaluations', num: true, sort: (r) => r.n },
    { key: 'lcb', label: 'LCB', num: true, sort: (r) => r.lcb },
    { key: 'test', label: 'test', num: true, sort: (r) => r.test },
  ];

  const compare = (f, dir) => (a, b) => {
    const x = f(a);
    const y = f(b);
    // Missing values (not evaluated, not run) sort last, whichever way.
    if (x === null || x === undefined || x === '') return y === null || y === undefined || y === '' ? 0 : 1;
    if (y === null || y === undefined || y === '') return -1;
    return (typeof x === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
  };

  function cell(ctx, r, key) {
    if (key === 'id') {
      const name = r.node
        ? el('a', { href: '#', class: 'node-link', onclick: (e) => (e.preventDefault(), ctx.select(r.id)) }, r.id)
        : el('span', {}, r.id);
      const pickWord = ctx.run.status === 'finished' ? 'winner' : 'leading';
      return el(
        'td',
        { class: 'program' },
        name,
        r.pick ? el('span', { class: 'tag pick' }, pickWord) : null,
        r.tied
          ? el(
              'span',
              { class: 'tag tied', title: 'the pick cannot be told apart from it on validation' },
              'tied with the pick',
            )
          : null,
      );
    }
    if (key === 'edit')
      return el('td', { class: 'edit' }, r.edit, r.tries ? el('div', { class: 'muted tries' }, r.tries) : null);
    if (key === 'q')
      return el('td', { class: 'num' }, r.q === null ? '—' : r.ci === null ? fmt(r.q) : `${fmt(r.q)} ± ${fmt(r.ci)}`);
    if (key === 'lcb') return el('td', { class: 'num' }, r.lcb === null ? '—' : fmt(A.bound(r.lcb)));
    if (key === 'test')
      return el('td', { class: `num${r.test === null ? ' muted' : ''}` }, r.test === null ? 'not run' : fmt(r.test));
    return el('td', { class: COLUMNS.find((c) => c.key === key).num ? 'num' : '' }, String(r[key]));
  }

  /** Draws the table into `box`; `sort` ({key, dir}) is kept by the caller across redraws. */
  function render(ctx, box, sort) {
    A.clear(box);
    const all = rows(ctx.run);
    const column = COLUMNS.find((c) => c.key === sort.key) || COLUMNS[0];
    all.sort(compare(column.sort, sort.dir));
    const head = el(
      'tr',
      {},
      COLUMNS.map((c) =>
        el(
          'th',
          {
            class: `${c.num ? 'num ' : ''}sortable`,
            'data-key': c.key,
            'aria-sort': c.key === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none',
            tabindex: 0,
            onclick: () => (
              (sort.dir = sort.key === c.key ? -sort.dir : c.num ? -1 : 1),
              (sort.key = c.key),
              render(ctx, box, sort)
            ),
          },
          c.label,
          c.key === sort.key ? (sort.dir > 0 ? ' ▲' : ' ▼') : '',
        ),
      ),
    );
    const table = el('table', { class: 'programs' }, head);
    for (const r of all)
      table.append(
        el(
          'tr',
          {
            class: `program-row${r.pick ? ' pick' : ''}${r.tied ? ' tied' : ''}${r.node ? '' : ' screened'}`,
            'data-id': r.id,
          },
          COLUMNS.map((c) => cell(ctx, r, c.key)),
        ),
      );
    const untested = all.filter((r) => r.test === null).length;
    box.append(
      table,
      el(
        'p',
        { class: 'hint' },
        `half-width: c_e·√(ln N / n), the interval the LCB is the bottom of. Test: the held-out split, scored in the final phase for the pick, the root and the seeds${untested ? `; ${untested} program${untested === 1 ? ' was' : 's were'} not run on it` : ''}.${ctx.run.final && ctx.run.final.tied ? '' : ctx.run.status === 'finished' ? '' : ' Ties with the pick are named when the run finishes.'}`,
      ),
    );
  }

  A.programs = { render, rows };
})((window.Automemo = window.Automemo || {}));
