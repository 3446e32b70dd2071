// hostile: llm.chat with a small array of messages that has holes in it
// expect: update /llm.chat: argument 1.messages\[1\] is a hole/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    messages.length = 50;
    await ctx.llm.chat({ messages });
  },
  retrieve: () => ({ text: '', images: [] }),
});
