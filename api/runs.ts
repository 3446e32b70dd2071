// Reading a run folder back: the run's records, its report (text or one HTML file) and the live viewer, for the CLI's
// `report`, `view` and `demo` and for a library user's own tooling.
export { defaultRunFolder } from '../run-store/run-folder.ts';
export { readRun, readRunInfo } from '../viewer/run-model.ts';
export { REPORT_LIMITS, renderReport } from '../viewer/report.ts';
export { textSummary } from '../viewer/summary.ts';
export { ViewServer } from '../viewer/server.ts';
export { StudyServer } from '../viewer/study/server.ts';
export { isStudyFolder, NotAStudyError, StudyFolder } from '../run-store/study-folder.ts';
export { writeStudyOutputs } from '../viewer/study/render.ts';
