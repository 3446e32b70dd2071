// Sample episodes and tasks for quick examination when an environment gives none: small, varied (web, visual
// with a real image, dialogue), and enough to exercise update and retrieve.
import sharp from 'sharp';
import type { EpisodeRecorder, ImageRef, PartialRecorder } from '../memo-programs/contract.ts';
import type { ImageStore } from './primitives/images.ts';

export interface Samples {
  episodes: EpisodeRecorder[];
  tasks: PartialRecorder[];
}

async function sampleImage(store: ImageStore): Promise<ImageRef> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160">
    <rect width="240" height="160" fill="#ffffff"/>
    <rect x="20" y="70" width="40" height="70" fill="#3b82f6"/>
    <rect x="80" y="40" width="40" height="100" fill="#ef4444"/>
    <rect x="140" y="100" width="40" height="40" fill="#10b981"/>
    <text x="20" y="28" font-family="DejaVu Sans" font-size="18" fill="#111">Sales 2023</text>
  </svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return store.put(png, { mime: 'image/png', caption: 'Bar chart titled Sales 2023 with three bars' });
}

export async function builtinSamples(store: ImageStore): Promise<Samples> {
  const chart = await sampleImage(store);
  const episodes: EpisodeRecorder[] = [
    {
      taskId: 'sample-web-1',
      env: 'web',
      domain: 'shop',
      instruction: 'Find the cheapest laptop with at least 16 GB of RAM and report its price.',
      initial: { text: 'ShopLite home page with a search box and categories.', url: 'http://127.0.0.1/shop' },
      steps: [
        { index: 0, action: 'Click [3] (Category: Laptops)', result: 'Laptop list, 24 items' },
        { index: 1, action: 'Click [7] (Refine ▸)', result: 'Filters opened: RAM, price, brand' },
        { index: 2, action: 'Click [12] (RAM ≥ 16 GB)', result: '9 items' },
        { index: 3, action: 'Select [15]; Price: low to high', result: 'Sorted by price' },
        { index: 4, action: 'ANSWER; $899', result: 'answered' },
      ],
      answer: '$899',
      outcome: { reward: 1, success: true },
      meta: { site: 'shop', template: 'cheapest-with-constraint' },
    },
    {
      taskId: 'sample-web-2',
      env: 'web',
      domain: 'shop',
      instruction: 'Find the cheapest tablet with a 10-inch screen and report its price.',
      initial: { text: 'ShopLite home page.', url: 'http://127.0.0.1/shop' },
      steps: [
        { index: 0, action: 'Type [2]; tablet 10 inch', result: '31 results, unsorted' },
        { index: 1, action: 'Scroll [WINDOW]; down', result: 'more results' },
        { index: 2, action: 'ANSWER; $349', result: 'answered', error: 'not the cheapest' },
      ],
      answer: '$349',
      outcome: { reward: 0, success: false, note: 'sorting was never applied' },
      meta: { site: 'shop', template: 'cheapest-with-constraint' },
    },
    {
      taskId: 'sample-visual-1',
      env: 'visual',
      domain: 'charts',
      instruction: 'Which bar in the chart is the tallest? Answer with its colour.',
      initial: { text: 'A bar chart.', images: [chart] },
      steps: [
        { index: 0, thought: 'Zoom to compare heights', action: 'zoom [0,0,999,999]', result: 'three bars: blue, red, green' },
        { index: 1, action: '<answer>red</answer>', result: 'answered' },
      ],
      answer: 'red',
      outcome: { reward: 1, success: true },
      meta: { family: 'charts', template: 'argmax' },
    },
    {
      taskId: 'sample-dialogue-1',
      env: 'locomo',
      domain: 'conversation',
      instruction: 'Session 1 on 8 May 2023 between Caroline and Melanie.',
      initial: { text: 'Dialogue session' },
      steps: [
        { index: 0, action: 'Caroline: I went to an LGBTQ support group yesterday and it was so powerful.' },
        { index: 1, action: 'Melanie: That sounds amazing! I painted a lake sunrise last year.' },
        { index: 2, action: 'Caroline: I want to study counseling and work in mental health.' },
      ],
      outcome: { reward: 1, success: true },
      meta: { session: 1, date: '2023-05-08' },
    },
    {
      taskId: 'sample-web-3',
      env: 'web',
      domain: 'helpdesk',
      instruction: 'Create a ticket for a broken printer in room 204 with priority High.',
      initial: { text: 'HelpDesk dashboard.', url: 'http://127.0.0.1/helpdesk' },
      steps: [
        { index: 0, action: 'Click [4] (New ticket)', result: 'ticket form' },
        { index: 1, action: 'Type [9]; Broken printer in room 204', result: 'typed' },
        { index: 2, action: 'Click [11] (Category tab)', result: 'priority selector shown' },
        { index: 3, action: 'Select [14]; High', result: 'selected' },
        { index: 4, action: 'Click [20] (Submit)', result: 'Ticket #1042 created' },
      ],
      outcome: { reward: 1, success: true },
      meta: { site: 'helpdesk', template: 'create-ticket' },
    },
  ];
  const tasks: PartialRecorder[] = [
    {
      taskId: 'sample-web-4',
      env: 'web',
      domain: 'shop',
      instruction: 'Find the cheapest phone with at least 128 GB of storage and report its price.',
      initial: { text: 'ShopLite home page.', url: 'http://127.0.0.1/shop' },
      meta: { site: 'shop', template: 'cheapest-with-constraint' },
    },
    {
      taskId: 'sample-visual-2',
      env: 'visual',
      domain: 'charts',
      instruction: 'Which bar in the chart is the shortest? Answer with its colour.',
      initial: { text: 'A bar chart.', images: [chart] },
      meta: { family: 'charts', template: 'argmin' },
    },
    {
      taskId: 'sample-dialogue-q1',
      env: 'locomo',
      domain: 'conversation',
      instruction: 'When did Caroline go to the LGBTQ support group?',
      initial: {},
      meta: { category: 2 },
    },
  ];
  return { episodes, tasks };
}
