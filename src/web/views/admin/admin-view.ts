// The Administration section, for owners and admins: people, tokens, retention, storage and the audit log, each
// at #/admin/<part>. The API decides who may do what; others are not shown the section at all.
import { h } from 'preact';
import type { Call } from '../../call.js';
import type { Session } from '../../session.js';
import { Audit } from './audit.js';
import { People } from './people.js';
import { Retention } from './settings.js';
import { Storage } from './storage.js';
import { Tokens } from './tokens.js';

const PARTS: Array<[string, string]> = [
  ['people', 'People'],
  ['tokens', 'Access tokens'],
  ['retention', 'Retention'],
  ['storage', 'Storage'],
  ['audit', 'Audit log'],
];

export const isAdministrator = (s: Session) => s.user.role === 'owner' || s.user.role === 'admin';

export function AdminView(props: { call: Call; session: Session; part: string }) {
  const part = PARTS.some(([p]) => p === props.part) ? props.part : 'people';
  if (!isAdministrator(props.session))
    return h(
      'main',
      { class: 'admin' },
      h('p', { class: 'error', role: 'alert' }, 'Only owners and admins administer the organisation.'),
    );
  const { call, session } = props;
  return h(
    'main',
    { class: 'admin' },
    h('h1', null, 'Administration'),
    h(
      'nav',
      { class: 'admin-nav', 'aria-label': 'Administration' },
      ...PARTS.map(([p, label]) =>
        h(
          'a',
          { href: `#/admin/${p}`, class: p === part ? 'active' : '', 'aria-current': p === part ? 'page' : undefined },
          label,
        ),
      ),
    ),
    part === 'people'
      ? h(People, { call, session })
      : part === 'tokens'
        ? h(Tokens, { call })
        : part === 'retention'
          ? h(Retention, { call })
          : part === 'storage'
            ? h(Storage, { call })
            : h(Audit, { call }),
  );
}
