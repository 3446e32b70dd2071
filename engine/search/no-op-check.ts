// Whether a child that passed quick examination would change nothing (NO_OP_RULES): it is the same program as a node
// of the tree; or, where the environment is deterministic, its payloads on every task of its first validation sample
// are exactly its parent's (so its score there would be too, whatever the agent does); elsewhere, its payloads on
// every quick-examination task are exactly its parent's. Such a child spends its step but no evaluation of the tree,
// and the agent hears of it. The first-sample rule looks at every task a score is made of, so a child that changes
// what the benchmark scores is never judged a no-op on a few tasks it happens not to touch. Payloads are compared by
// one digest (sandbox/payload.ts's payloadDigest); a node's quick-examination digests are the journal's (`digests`).
import { join } from 'node:path';
import { sourceHash } from '../../memo-programs/files.ts';
import { payloadDigest } from '../../sandbox/payload.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { readEvidenceLines, TaskEvidenceSchema } from '../evaluate/evidence.ts';
import type { ProgramFiles } from '../meta/types.ts';
import type { NoOpRule } from './journal-events.ts';
import type { ProgramStore } from './program-store.ts';
import type { SearchJournal } from './search-journal.ts';
import type { TreeNode } from './tree.ts';

export interface NoOp {
  rule: NoOpRule;
  reason: string;
  /** The node it would have been the same as. */
  same?: string;
}

/** A quick examination's payloads as the journal keeps them: `<taskId>:<digest>` per task. */
export function examDigests(report: QuickExamReport): string[] {
  return report.payloads.map((p) => `${p.taskId}:${p.digest}`);
}

export class NoOpCheck {
  /** Source hashes per node (read once: a node's files never change). */
  private readonly sources = new Map<string, string>();
  /** Examinations of nodes whose digests the journal lacks, this session (two steps in flight share one). */
  private readonly examining = new Map<string, Promise<string[] | undefined>>();

  constructor(
    private readonly journal: SearchJournal,
    private readonly programs: ProgramStore,
  ) {}

  /** The node of the tree with exactly these files, if any. */
  twin(files: ProgramFiles): NoOp | undefined {
    const mine = sourceHash(files);
    const twin = [...this.journal.state.tree.nodes.values()].find((n) => this.sourceOf(n) === mine);
    return twin ? { rule: 'same-program', reason: `the same program as ${twin.id}`, same: twin.id } : undefined;
  }

  /** The payloads of the child's first sample (evidence in `childEvidence`) against the parent's on the same sample. */
  sameFirstSample(parent: TreeNode, childEvidence: string): NoOp | undefined {
    const theirs = payloadDigests(this.programs.folder.evidenceDir(parent.id, 'train', 0));
    const mine = payloadDigests(childEvidence);
    if (!theirs || !mine || mine.size === 0 || theirs.size !== mine.size) return undefined;
    for (const [task, d] of mine) if (theirs.get(task) !== d) return undefined;
    const reason = `its payloads on all ${mine.size} tasks of its first validation sample are exactly its parent's`;
    return { rule: 'first-sample', reason, same: parent.id };
  }

  /** The quick examination's payloads against the parent's (environments that are not deterministic). */
  async sameExam(parent: TreeNode, report: QuickExamReport, step: number): Promise<NoOp | undefined> {
    const mine = examDigests(report);
    const theirs = await this.digests(parent, step);
    if (
      mine.length > 0 &&
      theirs !== undefined &&
      theirs.length === mine.length &&
      theirs.every((d, i) => d === mine[i])
    ) {
      return {
        rule: 'quick-exam',
        reason: `its payloads on the ${mine.length} quick-examination tasks are exactly its parent's`,
        same: parent.id,
      };
    }
    return undefined;
  }

  /** A node's source hash (a program folder that cannot be read matches nothing). */
  private sourceOf(node: TreeNode): string {
    let h = this.sources.get(node.id);
    if (h === undefined) {
      try {
        h = sourceHash(this.programs.files(node));
      } catch {
        h = `unreadable:${node.id}`;
      }
      this.sources.set(node.id, h);
    }
    return h;
  }

  /**
   * A node's payload digests on the quick-examination tasks: the journal's, or an examination of it now, journaled
   * (none when it no longer passes: its children are then never no-ops by this rule).
   */
  private async digests(node: TreeNode, step: number): Promise<string[] | undefined> {
    const known = this.journal.state.digests.get(node.id);
    if (known) return known.length ? known : undefined;
    let examining = this.examining.get(node.id);
    if (!examining) {
      examining = (async () => {
        const files = this.programs.files(node);
        const report = await this.programs.examine(files, join(this.programs.folder.dir, node.dir));
        const digests = report.passed ? examDigests(report) : [];
        this.journal.record({ type: 'digests', step, node: node.id, digests });
        return digests.length ? digests : undefined;
      })().catch(() => undefined);
      this.examining.set(node.id, examining);
    }
    return examining;
  }
}

/** Each scored task's payload digest, from an evaluation's evidence; undefined when unreadable. */
function payloadDigests(dir: string): Map<string, string> | undefined {
  try {
    const read = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema);
    if (read.unreadable) return undefined;
    const out = new Map<string, string>();
    for (const l of read.records) {
      if (!l.payload) return undefined;
      out.set(l.taskId, payloadDigest(l.payload.text, l.payload.images ?? [], l.payload.metadata));
    }
    return out;
  } catch {
    return undefined;
  }
}
