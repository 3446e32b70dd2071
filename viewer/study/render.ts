// Writes a study's outputs beside its study.json, all from it: study.md, study.csv, study.tex and study.html.
import { analyzeStudy, type StudyAnalysis } from '../../engine/study/analysis.ts';
import type { StudyFile } from '../../engine/study/study-file.ts';
import type { StudyFolder } from '../../run-store/study-folder.ts';
import { renderCsv } from './csv.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { renderTex } from './tex.ts';

export const STUDY_OUTPUTS = ['study.md', 'study.csv', 'study.tex', 'study.html'] as const;

export function renderStudyOutputs(study: StudyFile): { analysis: StudyAnalysis; files: Record<(typeof STUDY_OUTPUTS)[number], string> } {
  const analysis = analyzeStudy(study);
  return {
    analysis,
    files: {
      'study.md': renderMarkdown(study, analysis),
      'study.csv': renderCsv(analysis),
      'study.tex': renderTex(analysis),
      'study.html': renderHtml(study, analysis),
    },
  };
}

/** Renders the folder's study.json into its four outputs; returns what was written. */
export function writeStudyOutputs(folder: StudyFolder, study: StudyFile = folder.read()): { analysis: StudyAnalysis; paths: string[] } {
  const { analysis, files } = renderStudyOutputs(study);
  return { analysis, paths: Object.entries(files).map(([name, text]) => folder.writeOutput(name, text)) };
}
