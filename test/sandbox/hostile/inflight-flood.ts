// hostile: fire 5,000 slow host calls (embeddings of new texts) without awaiting them, to queue work in the host
// expect: update /64 host calls are already in flight; await your calls/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(episode, ctx) {
    const pending: Promise<number[][]>[] = [];
    for (let i = 0; i < 5_000; i++) pending.push(ctx.embed([`${episode.taskId} flood text number ${i}`]));
    await Promise.all(pending);
  },
  retrieve: () => ({ text: '', images: [] }),
});
