// Keeping a chat's image count bounded: agents that see a new image every turn keep only the newest few.
import type OpenAI from 'openai';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** Keeps the newest `max` image parts of user messages; older ones become the text `note`. */
export function capImages(messages: Message[], max: number, note: string): void {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role !== 'user' || typeof m.content === 'string' || !m.content) continue;
    m.content = m.content.map((p) => {
      if (p.type !== 'image_url') return p;
      seen++;
      return seen > max ? { type: 'text', text: note } : p;
    });
  }
}
