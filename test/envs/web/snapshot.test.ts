// Parsing Playwright's AI aria snapshot and reading values off it.
import { describe, expect, it } from 'vitest';
import { find, parseSnapshot, textLines, valueOf, withoutBoxes } from '../../../envs/web/browser/snapshot.ts';

const SNAPSHOT = `- generic [active] [ref=e1] [box=8,8,1008,744]:
  - link "Home" [ref=e3] [cursor=pointer] [box=8,8,47,19]:
    - /url: /x
  - textbox "Search" [ref=e7] [box=68,109,179,21]: ab
  - combobox "Sort" [ref=e10] [box=325,110,65,19]:
    - option "Price" [box=0,0,0,0]
    - option "Rating" [selected] [box=0,0,0,0]
  - checkbox "Free" [checked] [ref=e12] [box=394,111,13,13]
  - row [ref=e20]:
    - cell "Kettle" [ref=e21]
    - cell "$12.50" [ref=e22]
  - term [ref=e24]: Weight
  - definition [ref=e25]: 1.2 kg
  - paragraph [ref=e26]: "Total: $15 incl. tax"`;

describe('aria snapshot', () => {
  const nodes = parseSnapshot(SNAPSHOT);

  it('parses roles, names, refs, flags, boxes, inline text and properties', () => {
    expect(find(nodes, 'link', 'home')).toMatchObject({ ref: 'e3', attrs: { cursor: 'pointer', url: '/x' }, box: { x: 8, y: 8, w: 47, h: 19 } });
    expect(find(nodes, 'textbox', 'Search')?.text).toBe('ab');
    expect(find(nodes, 'option', 'Rating')?.attrs.selected).toBe(true);
    expect(find(nodes, 'checkbox', /fr/i)?.attrs.checked).toBe(true);
    expect(find(nodes, 'paragraph')?.text).toBe('Total: $15 incl. tax');
  });

  it('reads a labelled value from a definition list, a row or "Label: value" text', () => {
    expect(valueOf(nodes, 'Weight')).toBe('1.2 kg');
    expect(valueOf(nodes, 'Kettle')).toBe('$12.50');
    expect(valueOf(nodes, /^total$/i)).toBe('$15 incl. tax');
    expect(valueOf(nodes, 'Colour')).toBeUndefined();
    expect(textLines(nodes)).toContain('Search: ab');
  });

  it('reads lines Playwright single-quotes because the name holds a colon', () => {
    const n = parseSnapshot(`- 'generic "Sort: Recently updated" [ref=e11] [cursor=pointer]'\n- 'button "It''s: here" [ref=e12]':\n  - text: x`);
    expect(find(n, 'generic', 'Sort: Recently updated')).toMatchObject({ ref: 'e11', attrs: { cursor: 'pointer' } });
    expect(find(n, 'button', "It's: here")?.ref).toBe('e12');
  });

  it('drops box annotations from the text agents read', () => {
    expect(withoutBoxes(SNAPSHOT)).not.toContain('[box=');
    expect(withoutBoxes(SNAPSHOT)).toContain('[ref=e7]');
  });
});
