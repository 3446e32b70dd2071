// Whether a child that passed quick examination would change nothing: it is the same program as a node of the tree;
// or, where the environment is deterministic, its payloads on every task of its first validation sample are exactly
// its parent's (so its score there would be too, whatever the agent does); elsewhere, its payloads on every
// quick-examination task are exactly its parent's. Such a child spends its step but no evaluation of the tree, and the
// agent hears of it. The first-sample rule looks at every task a score is made of, so a child that changes what the
// benchmark scores is never judged a no-op on a few tasks it happens not to touch.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readProgramFiles, sourceHash } from '../../memo-programs/files.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { readEvidenceLines, TaskEvidenceSchema } from '../evaluate/evidence.ts';
import type { ProgramFiles } from '../meta/types.ts';
import type { SearchRun } from './search-run.ts';
import type { TreeNode } from './tree.ts';

export interface NoOp {
  reason: string;
  /** The node it would have been the same as. */
  same?: string;
}

export class NoOpCheck {
  /** Payload digests on the quick-examination tasks, per node. */
  private readonly examined = new Map<string, Promise<string[] | undefined>>();
  /** Source hashes per node. */
  private readonly sources = new Map<string, string>();

  constructor(private readonly run: SearchRun) {}

  /** The node of the tree with exactly these files, if any. */
  twin(files: ProgramFiles): NoOp | undefined {
    const mine = sourceHash(files);
    const twin = [...this.run.tree.nodes.values()].find((n) => this.sourceOf(n) === mine);
    return twin ? { reason: `the same program as ${twin.id}`, same: twin.id } : undefined;
  }

  /** The payloads of the child's first sample (evidence in `childEvidence`) against the parent's on the same sample. */
  sameFirstSample(parent: TreeNode, childEvidence: string): NoOp | undefined {
    const theirs = payloadDigests(this.run.folder.evidenceDir(parent.id, 'train', 0));
    const mine = payloadDigests(childEvidence);
    if (!theirs || !mine || mine.size === 0 || theirs.size !== mine.size) return undefined;
    for (const [task, d] of mine) if (theirs.get(task) !== d) return undefined;
    return { reason: `its payloads on all ${mine.size} tasks of its first validation sample are exactly its parent's`, same: parent.id };
  }

  /** The quick examination's payloads against the parent's (environments that are not deterministic). */
  async sameExam(parent: TreeNode, report: QuickExamReport): Promise<NoOp | undefined> {
    const mine = digestsOf(report);
    const theirs = await this.digests(parent);
    if (mine.length > 0 && theirs !== undefined && theirs.length === mine.length && theirs.every((d, i) => d === mine[i])) {
      return { reason: `its payloads on the ${mine.length} quick-examination tasks are exactly its parent's`, same: parent.id };
    }
    return undefined;
  }

  /** A child that passed keeps its digests: its own children compare with them without another examination. */
  remember(node: string, report: QuickExamReport): void {
    this.examined.set(node, Promise.resolve(digestsOf(report)));
  }

  /** A node's source hash (read once; a program folder that cannot be read matches nothing). */
  private sourceOf(node: TreeNode): string {
    let h = this.sources.get(node.id);
    if (h === undefined) {
      try {
        h = sourceHash(readProgramFiles(join(this.run.folder.dir, node.dir)));
      } catch {
        h = `unreadable:${node.id}`;
      }
      this.sources.set(node.id, h);
    }
    return h;
  }

  /** A node's payload digests on the quick-examination tasks: kept when a child passes, examined again otherwise. */
  private digests(node: TreeNode): Promise<string[] | undefined> {
    let known = this.examined.get(node.id);
    if (!known) {
      const dir = join(this.run.folder.dir, node.dir);
      known = (async () => {
        const report = await this.run.examine(readProgramFiles(dir), dir);
        return report.passed ? digestsOf(report) : undefined;
      })().catch(() => undefined);
      this.examined.set(node.id, known);
    }
    return known;
  }
}

function digestsOf(report: QuickExamReport): string[] {
  return report.payloads.map((p) => `${p.taskId}:${p.digest}`);
}

/** Each scored task's payload (text and images) as a digest, from an evaluation's evidence; undefined when unreadable. */
function payloadDigests(dir: string): Map<string, string> | undefined {
  try {
    const read = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema);
    if (read.unreadable) return undefined;
    const out = new Map<string, string>();
    for (const l of read.records) {
      if (!l.payload) return undefined;
      out.set(l.taskId, createHash('sha256').update(l.payload.text).update('\0').update((l.payload.images ?? []).join('\0')).digest('hex'));
    }
    return out;
  } catch {
    return undefined;
  }
}
