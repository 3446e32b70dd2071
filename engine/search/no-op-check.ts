// Why a child that passed quick examination would change nothing, if it would: it is the same program as a node of
// the tree, or its payloads on every quick-examination task are exactly its parent's. Such a child spends its step
// but no evaluation, and the agent hears of it.
import { join } from 'node:path';
import { readProgramFiles, sourceHash } from '../../memo-programs/files.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
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

  async check(parent: TreeNode, files: ProgramFiles, report: QuickExamReport): Promise<NoOp | undefined> {
    const mineHash = sourceHash(files);
    const twin = [...this.run.tree.nodes.values()].find((n) => this.sourceOf(n) === mineHash);
    if (twin) return { reason: `the same program as ${twin.id}`, same: twin.id };
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
