// Access tokens for pipelines: list (never a secret), create (the secret in a copy-once dialog), revoke (asking,
// naming the token).
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Call } from '../../call.js';
import { userText } from '../../user-text.js';
import { ErrorLine, ListTable, SecretOnce, Section, adminInWords, at } from './parts.js';

interface Token {
  id: string;
  name: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  status: string;
}
const DURATION = /^(\d+[smhd])+$|^\d+$/;

export function Tokens(props: { call: Call }) {
  const { call } = props;
  const [tokens, setTokens] = useState<Token[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [expiresIn, setExpiresIn] = useState('');
  const [secret, setSecret] = useState<{ title: string; lines: Array<[string, string]> } | undefined>();

  const load = () =>
    call<{ data: Token[] }>('/admin/tokens').then(
      (r) => setTokens(r.data),
      (err) => setError(adminInWords(err)),
    );
  useEffect(() => void load(), []);

  async function create(event: Event) {
    event.preventDefault();
    setFormError(undefined);
    if (!/\S/.test(name)) return setFormError('Name the token (what uses it, e.g. "tracker on cam-3").');
    if (expiresIn && !DURATION.test(expiresIn.trim()))
      return setFormError(
        'The lifetime is a duration such as 90d, 12h or 3600 (seconds); leave it empty for no expiry.',
      );
    try {
      const r = await call<{ data: Token & { token: string } }>('/admin/tokens', {
        method: 'POST',
        body: { name, ...(expiresIn ? { expiresIn: expiresIn.trim() } : {}) },
      });
      setName('');
      setExpiresIn('');
      setSecret({ title: `Token ${r.data.name}`, lines: [['Bearer token', r.data.token]] });
      await load();
    } catch (err) {
      setFormError(adminInWords(err));
    }
  }

  async function revoke(t: Token) {
    if (!confirm(`Revoke the token ${t.name}? Whatever uses it stops working at once.`)) return;
    setError(undefined);
    try {
      await call(`/admin/tokens/${t.id}`, { method: 'DELETE' });
      await load();
    } catch (err) {
      setError(adminInWords(err));
    }
  }

  return h(
    Section,
    { title: 'Access tokens' },
    h(
      'p',
      { class: 'muted small' },
      'For pipelines and scripts: a token reads and writes detections and recordings, nothing administrative.',
    ),
    h(ErrorLine, { error }),
    tokens
      ? tokens.length === 0
        ? h('p', { class: 'muted' }, 'No tokens yet.')
        : h(ListTable, {
            label: 'Tokens',
            heads: ['Name', 'Created', 'Expires', 'Status', ''],
            rows: tokens.map((t) =>
              h(
                'tr',
                { key: t.id, 'data-token': t.name },
                h('td', null, userText(t.name)),
                h('td', null, at(t.createdAt)),
                h('td', null, t.expiresAt ? at(t.expiresAt) : 'never'),
                h('td', null, t.status),
                h(
                  'td',
                  { class: 'actions' },
                  t.status === 'revoked'
                    ? null
                    : h('button', { type: 'button', class: 'danger', onClick: () => void revoke(t) }, 'Revoke'),
                ),
              ),
            ),
          })
      : null,
    h(
      'form',
      { class: 'admin-form', onSubmit: create, 'aria-label': 'Create a token' },
      h('h3', null, 'New token'),
      h(
        'label',
        null,
        'Name',
        h('input', { name: 'name', value: name, onInput: (e: Event) => setName((e.target as HTMLInputElement).value) }),
      ),
      h(
        'label',
        null,
        'Expires in (optional)',
        h('input', {
          name: 'expiresIn',
          placeholder: '90d',
          value: expiresIn,
          onInput: (e: Event) => setExpiresIn((e.target as HTMLInputElement).value),
        }),
      ),
      h(ErrorLine, { error: formError }),
      h('button', { type: 'submit', class: 'primary' }, 'Create token'),
    ),
    secret ? h(SecretOnce, { ...secret, onClose: () => setSecret(undefined) }) : null,
  );
}
