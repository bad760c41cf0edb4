// Pieces the administration views share: the API's refusals in words, the copy-once dialog for a new secret, and a
// form's error line.
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { ApiProblem, inWords } from '../../api.js';

const ADMIN_WORDS: Record<string, string> = {
  last_owner: 'This is the organisation’s last owner: make another user owner first.',
  username_taken: 'This username is taken (usernames are unique across the service): choose another.',
  user_not_found: 'This user no longer exists.',
  token_not_found: 'This token no longer exists.',
  token_revoked: 'This token was revoked already.',
  unknown_account: 'The organisation has no storage account of that name.',
  provider_exists: 'A provider of that name exists already: choose another name.',
  account_exists: 'An account of that name exists already (account names are unique across the service).',
  provider_not_found: 'This provider no longer exists.',
  account_not_found: 'This account no longer exists.',
  unknown_provider: 'The account names a provider the organisation does not have.',
  invitation_not_found: 'This invitation link is unknown: ask an administrator for a new one.',
  invitation_used: 'This invitation was used already: sign in with the password chosen then.',
  invitation_expired: 'This invitation has expired: ask an administrator for a new one.',
  forbidden: 'Your role is not allowed to do this (only an owner may give, take or change the owner role).',
};

/** An admin API error as a sentence: the admin codes in words, the rest as the rest of the app says them. */
export function adminInWords(err: unknown): string {
  if (err instanceof ApiProblem) {
    const words = ADMIN_WORDS[err.code];
    if (words) return words;
    if (err.code === 'invalid_provider' || err.code === 'invalid_account')
      return `The server refused the form: ${err.message.replace(/\.$/, '')}.`;
  }
  return inWords(err);
}

export function ErrorLine(props: { error: string | undefined }) {
  return props.error ? h('p', { class: 'error', role: 'alert' }, props.error) : null;
}

/** A secret shown this once, with a copy button; closing it is the last time anyone sees it. */
export function SecretOnce(props: { title: string; lines: Array<[string, string]>; onClose: () => void }) {
  const [copied, setCopied] = useState<string | undefined>();
  return h(
    'div',
    { class: 'dialog-backdrop' },
    h(
      'div',
      { class: 'dialog secret-once', role: 'dialog', 'aria-modal': 'true', 'aria-label': props.title },
      h('h2', null, props.title),
      h('p', null, 'Copy it now: it is shown only this once and cannot be shown again.'),
      ...props.lines.map(([label, value]) =>
        h(
          'div',
          { class: 'secret-line' },
          h('span', { class: 'muted small' }, label),
          h('code', { class: 'secret', 'data-secret': label }, value),
          h(
            'button',
            {
              type: 'button',
              onClick: () =>
                void navigator.clipboard?.writeText(value).then(
                  () => setCopied(label),
                  () => setCopied(undefined),
                ),
            },
            copied === label ? 'Copied' : 'Copy',
          ),
        ),
      ),
      h('button', { type: 'button', class: 'primary', onClick: props.onClose }, 'I have copied it — close'),
    ),
  );
}

export function Section(props: { title: string; children?: ComponentChild | ComponentChild[] }) {
  return h('section', { class: 'admin-section' }, h('h2', null, props.title), props.children);
}

/** The administration's lists: a table named for screen readers, its column heads, then one row per item. */
export function ListTable(props: { label: string; heads: string[]; rows: ComponentChild[] }) {
  return h(
    'table',
    { class: 'list admin-table', 'aria-label': props.label },
    h('thead', null, h('tr', null, ...props.heads.map((head) => h('th', null, head)))),
    h('tbody', null, ...props.rows),
  );
}

/** When a time is, for people: the ISO time without its milliseconds. */
export const at = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—');
