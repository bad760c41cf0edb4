// The audit log: every admin change, newest first, a page at a time.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Call } from '../../call.js';
import { userText } from '../../user-text.js';
import { ErrorLine, ListTable, Section, adminInWords, at } from './parts.js';

interface Entry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  address: string | null;
  action: string;
  target: { type: string; id: string | null; name: string | null };
  details: Record<string, unknown>;
}

export function Audit(props: { call: Call }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const load = async (cursor?: string) => {
    try {
      const r = await props.call<{ data: { entries: Entry[]; nextCursor: string | null } }>(
        `/admin/audit?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      setEntries((old) => (cursor ? [...old, ...r.data.entries] : r.data.entries));
      setNext(r.data.nextCursor);
    } catch (err) {
      setError(adminInWords(err));
    }
  };
  useEffect(() => void load(), []);
  return h(
    Section,
    { title: 'Audit log' },
    h(
      'p',
      { class: 'muted small' },
      'Every administrative change: who, what, when and from where. Kept for the retention period, at least 90 days.',
    ),
    h(ErrorLine, { error }),
    h(ListTable, {
      label: 'Audit log',
      heads: ['When', 'Who', 'From', 'What', 'On', 'Details'],
      rows: entries.map((e) =>
        h(
          'tr',
          { key: e.id, 'data-action': e.action },
          h('td', null, at(e.at)),
          h('td', null, userText(e.actor.name ?? e.actor.kind)),
          h('td', null, e.address ?? '—'),
          h('td', null, e.action),
          h('td', null, `${e.target.type} `, userText(e.target.name ?? e.target.id ?? '')),
          h('td', { class: 'small' }, userText(Object.keys(e.details).length ? JSON.stringify(e.details) : '')),
        ),
      ),
    }),
    next ? h('button', { type: 'button', onClick: () => void load(next) }, 'Older entries') : null,
  );
}
