// A toy memo program whose payload states its own settings first: every edit of its config changes what the agent
// gets, so an offline search on it never writes a child that changes nothing (tests of evaluation paths use it).
import { defineMemo } from 'automemo/contract';

export const config = { maxChars: 2000, recent: 8, weight: 0.5, exact: true };
const lines: string[] = [];

export default defineMemo({
  update(episode) {
    for (const s of episode.steps) lines.push(s.action);
  },
  retrieve(task) {
    const door = /door-\d+/.exec(task.instruction)?.[0] ?? '';
    const found = lines.filter((l) => l.includes(`${door} `)).slice(-config.recent);
    return { text: `settings ${JSON.stringify(config)}\n${found.join('\n')}`.slice(0, config.maxChars), images: [] };
  },
});
