// People: list, add with a password or invite (a one-time link), change role, reset password, delete (asking,
// naming the user). Owners alone give or take the owner role; the API says so when an admin tries.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Call } from '../../call.js';
import type { Session } from '../../session.js';
import { userText } from '../../user-text.js';
import { ErrorLine, ListTable, SecretOnce, Section, adminInWords, at } from './parts.js';

interface User {
  id: string;
  username: string;
  role: string;
  status: 'active' | 'invited';
  invitationExpiresAt: string | null;
  createdAt: string;
}
const ROLES = ['viewer', 'editor', 'admin', 'owner'];

/** The API's rules, checked before asking it (it checks them again). */
export function passwordProblem(password: string): string | undefined {
  if (!/\S/.test(password)) return 'Enter a password (not only spaces).';
  if (password.length < 8) return 'The password needs at least 8 characters.';
  if (password.length > 1024) return 'The password may have at most 1024 characters.';
  return undefined;
}

export function People(props: { call: Call; session: Session }) {
  const { call } = props;
  const [users, setUsers] = useState<User[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState('viewer');
  const [mode, setMode] = useState<'password' | 'invite'>('invite');
  const [password, setPassword] = useState('');
  const [secret, setSecret] = useState<{ title: string; lines: Array<[string, string]> } | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const load = () =>
    call<{ data: User[] }>('/admin/users').then(
      (r) => setUsers(r.data),
      (err) => setError(adminInWords(err)),
    );
  useEffect(() => void load(), []);

  async function add(event: Event) {
    event.preventDefault();
    setFormError(undefined);
    setNotice(undefined);
    if (!/\S/.test(username)) return setFormError('Enter a username.');
    if (mode === 'password') {
      const problem = passwordProblem(password);
      if (problem) return setFormError(problem);
    }
    try {
      const body = mode === 'invite' ? { username, role, invite: true } : { username, role, password };
      const r = await call<{ data: User & { invitation?: { token: string; expiresAt: string } } }>('/admin/users', {
        method: 'POST',
        body,
      });
      setUsername('');
      setPassword('');
      if (r.data.invitation) {
        const link = `${location.origin}${location.pathname}#/invite/${r.data.invitation.token}`;
        setSecret({
          title: `Invitation for ${r.data.username}`,
          lines: [[`Link (works once, until ${at(r.data.invitation.expiresAt)})`, link]],
        });
      } else setNotice(`${r.data.username} was added as ${r.data.role}.`);
      await load();
    } catch (err) {
      setFormError(adminInWords(err));
    }
  }

  async function act(fn: () => Promise<unknown>, done: string) {
    setError(undefined);
    setNotice(undefined);
    try {
      await fn();
      setNotice(done);
      await load();
    } catch (err) {
      setError(adminInWords(err));
    }
  }

  const changeRole = (u: User, to: string) =>
    act(() => call(`/admin/users/${u.id}`, { method: 'PATCH', body: { role: to } }), `${u.username} is now ${to}.`);
  const resetPassword = (u: User) => {
    const next = prompt(`New password for ${u.username} (at least 8 characters). Their sessions will end.`);
    if (next === null) return;
    const problem = passwordProblem(next);
    if (problem) return setError(problem);
    return act(
      () => call(`/admin/users/${u.id}/password`, { method: 'POST', body: { password: next } }),
      `The password of ${u.username} was changed; their sessions have ended.`,
    );
  };
  const remove = (u: User) => {
    if (!confirm(`Delete the user ${u.username} (${u.role})? Their sessions end at once. This cannot be undone.`))
      return;
    return act(() => call(`/admin/users/${u.id}`, { method: 'DELETE' }), `${u.username} was deleted.`);
  };

  return h(
    Section,
    { title: 'People' },
    h(ErrorLine, { error }),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    users
      ? h(ListTable, {
          label: 'Users',
          heads: ['Username', 'Role', 'Status', 'Created', ''],
          rows: users.map((u) =>
            h(
              'tr',
              { key: u.id, 'data-user': u.username },
              h('td', null, userText(u.username), u.id === props.session.user.id ? ' (you)' : ''),
              h(
                'td',
                null,
                h(
                  'select',
                  {
                    'aria-label': `Role of ${u.username}`,
                    value: u.role,
                    onChange: (e: Event) => void changeRole(u, (e.target as HTMLSelectElement).value),
                  },
                  ...ROLES.map((r) => h('option', { value: r }, r)),
                ),
              ),
              h('td', null, u.status === 'invited' ? `invited (until ${at(u.invitationExpiresAt)})` : 'active'),
              h('td', null, at(u.createdAt)),
              h(
                'td',
                { class: 'actions' },
                h('button', { type: 'button', onClick: () => void resetPassword(u) }, 'Reset password'),
                h('button', { type: 'button', class: 'danger', onClick: () => void remove(u) }, 'Delete'),
              ),
            ),
          ),
        })
      : error
        ? null
        : h('p', { class: 'muted' }, 'Loading…'),
    h(
      'form',
      { class: 'admin-form', onSubmit: add, 'aria-label': 'Add a user' },
      h('h3', null, 'Add someone'),
      h(
        'label',
        null,
        'Username',
        h('input', {
          name: 'username',
          value: username,
          onInput: (e: Event) => setUsername((e.target as HTMLInputElement).value),
        }),
      ),
      h(
        'label',
        null,
        'Role',
        h(
          'select',
          { name: 'role', value: role, onChange: (e: Event) => setRole((e.target as HTMLSelectElement).value) },
          ...ROLES.map((r) => h('option', { value: r }, r)),
        ),
      ),
      h(
        'fieldset',
        null,
        h('legend', null, 'How they get in'),
        h(
          'label',
          { class: 'inline' },
          h('input', { type: 'radio', name: 'mode', checked: mode === 'invite', onChange: () => setMode('invite') }),
          'Invitation link (they choose a password)',
        ),
        h(
          'label',
          { class: 'inline' },
          h('input', {
            type: 'radio',
            name: 'mode',
            checked: mode === 'password',
            onChange: () => setMode('password'),
          }),
          'Password I choose',
        ),
      ),
      mode === 'password'
        ? h(
            'label',
            null,
            'Password',
            h('input', {
              name: 'password',
              type: 'password',
              autocomplete: 'new-password',
              value: password,
              onInput: (e: Event) => setPassword((e.target as HTMLInputElement).value),
            }),
          )
        : null,
      h(ErrorLine, { error: formError }),
      h('button', { type: 'submit', class: 'primary' }, mode === 'invite' ? 'Invite' : 'Add user'),
    ),
    secret ? h(SecretOnce, { ...secret, onClose: () => setSecret(undefined) }) : null,
  );
}
