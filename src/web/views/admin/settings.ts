// Retention: how many days recordings and their runs are kept, and whether recordings outlive their runs.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Call } from '../../call.js';
import { ErrorLine, Section, adminInWords } from './parts.js';

export interface OrganisationSettings {
  id: string;
  name: string;
  retentionDays: number;
  keepRecordings: boolean;
  editorStorageAccount: string | null;
}

export function Retention(props: { call: Call }) {
  const { call } = props;
  const [org, setOrg] = useState<OrganisationSettings | undefined>();
  const [days, setDays] = useState('');
  const [keep, setKeep] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const show = (o: OrganisationSettings) => {
    setOrg(o);
    setDays(String(o.retentionDays));
    setKeep(o.keepRecordings);
  };
  useEffect(() => {
    call<{ data: OrganisationSettings }>('/admin/organisation').then(
      (r) => show(r.data),
      (err) => setError(adminInWords(err)),
    );
  }, []);

  async function save(event: Event) {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    const n = Number(days);
    if (!/^\d+$/.test(days.trim()) || n < 1 || n > 1_000_000)
      return setError('Retention is a whole number of days from 1 to 1000000.');
    try {
      const r = await call<{ data: OrganisationSettings }>('/admin/organisation', {
        method: 'PATCH',
        body: { retentionDays: n, keepRecordings: keep },
      });
      show(r.data);
      setNotice('Saved. The retention sweep applies it on its next run.');
    } catch (err) {
      setError(adminInWords(err));
    }
  }

  return h(
    Section,
    { title: 'Retention' },
    org
      ? h(
          'form',
          { class: 'admin-form', onSubmit: save, 'aria-label': 'Retention' },
          h(
            'label',
            null,
            'Keep recordings and their detections for (days)',
            h('input', {
              name: 'retentionDays',
              inputMode: 'numeric',
              value: days,
              onInput: (e: Event) => setDays((e.target as HTMLInputElement).value),
            }),
          ),
          h(
            'label',
            { class: 'inline' },
            h('input', {
              type: 'checkbox',
              name: 'keepRecordings',
              checked: keep,
              onChange: (e: Event) => setKeep((e.target as HTMLInputElement).checked),
            }),
            'Keep the recordings themselves after their detections expire',
          ),
          h(ErrorLine, { error }),
          notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
          h('button', { type: 'submit', class: 'primary' }, 'Save retention'),
        )
      : h(ErrorLine, { error }),
  );
}
