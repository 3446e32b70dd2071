// What a memory learns from before it is asked the test questions: the evaluation protocol, one option of eval,
// baselines, search and study, the same for the standard designs and the picks, and stated in every header, run.json,
// report and table.
//
// - 'update' (the default): the update episodes only — the memory a program builds for the test questions is built
//   from exactly what it was built from during the search, so a program's validation and test scores measure the same
//   memory on different questions, and the validation tasks the search selected on never feed the test.
// - 'update+validation': the update and the validation tasks' episodes — more to learn from at test time (what
//   automemo did before the protocol was an option).
//
// It matters where the episodes a memory learns from are tasks of the split (environments of tasks: modules, web,
// visual). Where they are a history told before any question (LoCoMo, data: files), the memory learns from the
// whole history under either protocol, and the statement says so.
import { z } from 'zod';

export const PROTOCOLS = ['update', 'update+validation'] as const;
export const ProtocolSchema = z.enum(PROTOCOLS, { error: `protocol is one of ${PROTOCOLS.join(', ')}` });
export type Protocol = z.infer<typeof ProtocolSchema>;

export const DEFAULT_PROTOCOL: Protocol = 'update';

/** The protocol in one sentence, for every header and table. */
export function protocolStatement(p: Protocol): string {
  return p === 'update'
    ? 'protocol "update": a memory asked test questions learned from the update episodes only, as during the search (history benchmarks: the whole history, either way)'
    : 'protocol "update+validation": a memory asked test questions learned from the update and the validation episodes (history benchmarks: the whole history, either way)';
}
