// Writes LoCoMo (the shipped conversations, or --data DIR) in automemo's data format:
//   node --import tsx scripts/locomo-to-data.ts [--data DIR] > locomo.jsonl
import { parseArgs } from 'node:util';
import { defaultLocomoDir } from '../envs/locomo/environment.ts';
import { loadConversations } from '../envs/locomo/load.ts';
import { locomoToDataLines } from '../envs/data/from-locomo.ts';

const { values } = parseArgs({ options: { data: { type: 'string' } } });
const loaded = loadConversations(values.data ?? defaultLocomoDir());
for (const w of loaded.warnings) process.stderr.write(`locomo: ${w}\n`);
process.stdout.write(`${locomoToDataLines(loaded.conversations).join('\n')}\n`);
