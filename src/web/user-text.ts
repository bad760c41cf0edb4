// Text that comes from the data (media keys, devices, labels, run names) as people should read it.
import { h, type ComponentChild, type VNode } from 'preact';

// Bidi embeddings, overrides and isolates (LRE … RLO, LRI … PDI): inside a name they reorder what follows, so that
// `invoice<RLO>gpj.mp4` reads as `invoice4pm.jpg`. Marks (LRM, RLM, ALM) only nudge neutral characters: kept.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/** A character's name as people look it up: `U+202E`. */
const codeOf = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`;

/**
 * A name as its own bidi island (<bdi>: right-to-left text stays inside it and never reorders the app's text
 * around it), with any bidi control shown as a visible mark instead of obeyed.
 */
export function userText(text: string): VNode {
  const parts: ComponentChild[] = [];
  let last = 0;
  for (const m of text.matchAll(BIDI_CONTROL)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const code = codeOf(m[0]);
    parts.push(
      h('span', { class: 'bidi-control', title: `${code}: a bidi control character, shown instead of obeyed` }, code),
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return h('bdi', null, ...parts);
}

/** The same for places that hold plain text only (an <option>, a title): bidi controls as `[U+202E]`. */
export function userTextPlain(text: string): string {
  return text.replace(BIDI_CONTROL, (c) => `[${codeOf(c)}]`);
}

/** Names listed with commas, each its own island; a dash for none. */
export function userList(names: string[]): VNode | string {
  if (names.length === 0) return '—';
  return h('span', null, ...names.flatMap((name, i) => (i === 0 ? [userText(name)] : [', ', userText(name)])));
}
