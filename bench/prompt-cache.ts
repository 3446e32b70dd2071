// How much of a model search's prompt text a provider's prefix cache can serve, as the run grows: a LoCoMo search
// with the model meta agent against the local server, whose scripted "model" answers each child's call with a small
// change (one tunable of the program it was shown, moved a step) and every JSON call with an empty but valid reply.
// The replies are not a model's; the prompts are today's, built from a real tree, real evaluations and real evidence,
// so the share they leave to a prefix cache is what a real run with the same tree would get. Printed after 6, 12
// and every further 6 children: the cumulative cacheable share (prompt characters that are a prefix an earlier
// request already sent, as bench:search-recorded counts them), its ceiling over any layout of the same text, and
// prompt tokens per child.
//   npm run bench:prompt-cache [-- --budget 18]
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { search } from '../api/index.ts';
import { renderEdits } from '../engine/meta/model/edit-format.ts';
import { editsBetween } from '../engine/meta/model/edits-between.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import type { ProgramFiles } from '../memo-programs/files.ts';
import { closeHostServices } from '../sandbox/primitives/index.ts';
import { OpenAITestServer } from '../test/support/openai-server.ts';
import { programShown } from '../test/support/recorded-edits.ts';
import { purposeOf, requestText } from '../test/support/recorded-session.ts';
import { novelChars, sharedPrefixes } from './search-recorded.ts';
import { table } from './stats.ts';

/** A reply every JSON purpose accepts (scenario summaries, the cluster manager). */
const JSON_REPLY = JSON.stringify({ summaries: [], operations: [], assign: {} });

/** A `name: number` property (in a config object or a stage's options): a tunable the scripted model may move. */
const TUNABLE = /\b([A-Za-z_]\w*\s*:\s*)(\d+(?:\.\d+)?)\b(?![.\w])/g;
const COMMENT_OR_IMPORT = /^\s*(\/\/|\/?\*|import\b)/;

/** The program with its `pick`-th tunable (counted over all files, wrapping) moved one step: integers ±1, others ×0.9. */
function movedTunable(files: ProgramFiles, pick: number): ProgramFiles | undefined {
  const spots = Object.entries(files).flatMap(([file, text]) =>
    text.split('\n').flatMap((line, i) =>
      COMMENT_OR_IMPORT.test(line) ? [] : [...line.matchAll(TUNABLE)].map((m) => ({ file, i, at: m.index as number })),
    ),
  );
  if (!spots.length) return undefined;
  const { file, i, at } = spots[pick % spots.length] as { file: string; i: number; at: number };
  const lines = (files[file] as string).split('\n');
  const line = lines[i] as string;
  const m = new RegExp(TUNABLE.source).exec(line.slice(at)) as RegExpExecArray;
  const [all, head, num] = m as unknown as [string, string, string];
  const n = Number(num);
  const next = num.includes('.') ? Math.round(n * 900) / 1000 : n > 1 && pick % 2 ? n - 1 : n + 1;
  lines[i] = `${line.slice(0, at)}${head}${next}${line.slice(at + all.length)}`;
  return { ...files, [file]: lines.join('\n') };
}

function scriptedReply(body: any, call: number): string {
  if (body.response_format?.type === 'json_object') return JSON_REPLY;
  const purpose = purposeOf(body);
  if (purpose !== 'proposal') return 'No change.';
  const base = programShown(requestText(body), 'proposal');
  const next = movedTunable(base, call);
  const analysis = {
    clusters: [],
    summary: `Move tunable #${call} of the program one step.`,
    changes: [{ change: `tunable #${call} moved one step`, why: 'a scripted change', clusters: [] }],
  };
  return `${JSON.stringify(analysis)}\n\n${next ? renderEdits(editsBetween(base, next)) : ''}`;
}

interface Checkpoint {
  children: number;
  requests: number;
  prompt: number;
  share: number;
  ceiling: number;
}

/** The cumulative shares after every `every` proposals (a proposal is one child's call), and at the run's end. */
function checkpoints(requests: any[], every: number): Checkpoint[] {
  const texts = requests.map((b) => JSON.stringify(b.messages));
  const shared = sharedPrefixes(texts);
  const novel = novelChars(texts);
  const out: Checkpoint[] = [];
  let proposals = 0;
  let chars = 0;
  let cached = 0;
  let unseen = 0;
  for (const [i, b] of requests.entries()) {
    chars += (texts[i] as string).length;
    cached += shared[i] as number;
    unseen += novel[i] as number;
    const proposal = purposeOf(b) === 'proposal';
    if (proposal) proposals++;
    if ((proposal && proposals % every === 0) || i === requests.length - 1) {
      // The run's end after a checkpoint with no new child in between replaces it.
      if (out.at(-1)?.children === proposals) out.pop();
      const prompt = Math.ceil(chars / 4);
      out.push({ children: proposals, requests: i + 1, prompt, share: cached / chars, ceiling: 1 - unseen / chars });
    }
  }
  return out;
}

export async function promptCacheRows(budget: number): Promise<{ rows: Checkpoint[]; run: string }> {
  const server = await OpenAITestServer.start();
  let calls = 0;
  server.onChat = (body) => ({ content: scriptedReply(body, calls++) });
  const out = mkdtempSync(join(tmpdir(), 'bench-prompt-cache-'));
  try {
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'scripted-bench-model' });
    const r = await search({ env: 'locomo', out: join(out, 'run'), models, meta: 'model', budget, parallel: 1, seed: 7, workers: 1 });
    return {
      rows: checkpoints(server.chatRequests(), 6),
      run: `${r.steps} steps, ${r.validGenerations} valid children, ${r.failedGenerations} failed; pick ${r.winner.id} ${r.winner.validation.toFixed(3)} on validation`,
    };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const budget = Number(parseArgs({ options: { budget: { type: 'string', default: '18' } } }).values.budget);
  if (!Number.isInteger(budget) || budget < 1 || budget > 200) throw new Error('--budget takes a whole number of steps from 1 to 200');
  const started = Date.now();
  const { rows, run } = await promptCacheRows(budget);
  process.stdout.write(
    `\nPrompt cache: a LoCoMo search, budget ${budget}, one child's call per step (a scripted model moving one tunable), prompts as today's meta agent builds them (${run}); ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  process.stdout.write(
    `${table([
      ['children written', 'requests', 'prompt tokens', 'prompt tokens per child', 'cacheable share (prefix)', 'ceiling (any layout)'],
      ...rows.map((r) => [
        r.children,
        r.requests,
        r.prompt,
        r.children ? Math.round(r.prompt / r.children) : '—',
        `${(100 * r.share).toFixed(1)}%`,
        `${(100 * r.ceiling).toFixed(1)}%`,
      ]),
    ])}\n`,
  );
  closeHostServices();
}
