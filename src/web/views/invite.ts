// Redeeming an invitation (#/invite/<secret>): the invited user chooses a password, then signs in. The secret is
// in the fragment, which browsers never send to a server.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { request } from '../api.js';
import { userText } from '../user-text.js';
import { adminInWords } from './admin/parts.js';
import { passwordProblem } from './admin/people.js';

interface Invitation {
  username: string;
  role: string;
  organisation: { name: string };
  expiresAt: string;
}

export function InviteView(props: { token: string }) {
  const path = `/invitations/${encodeURIComponent(props.token)}`;
  const [invitation, setInvitation] = useState<Invitation | undefined>();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  useEffect(() => {
    request<{ data: Invitation }>(path, undefined).then(
      (r) => setInvitation(r.data),
      (err) => setError(adminInWords(err)),
    );
  }, [path]);

  async function submit(event: Event) {
    event.preventDefault();
    setError(undefined);
    const problem = passwordProblem(password);
    if (problem) return setError(problem);
    if (password !== again) return setError('The two passwords differ.');
    try {
      await request(path, undefined, { method: 'POST', body: { password } });
      setDone(true);
    } catch (err) {
      setError(adminInWords(err));
    }
  }

  return h(
    'main',
    { class: 'signin' },
    h(
      'form',
      { onSubmit: submit, 'aria-label': 'Choose a password' },
      h('h1', null, 'Welcome to Sightline'),
      done
        ? [h('p', { role: 'status' }, 'Your password is set.'), h('a', { href: '#/recordings' }, 'Sign in')]
        : invitation
          ? [
              h(
                'p',
                null,
                'You are invited to ',
                userText(invitation.organisation.name),
                ' as ',
                userText(invitation.username),
                ` (${invitation.role}). Choose a password of at least 8 characters.`,
              ),
              h(
                'label',
                null,
                'Password',
                h('input', {
                  type: 'password',
                  name: 'password',
                  autocomplete: 'new-password',
                  value: password,
                  onInput: (e: Event) => setPassword((e.target as HTMLInputElement).value),
                }),
              ),
              h(
                'label',
                null,
                'The same again',
                h('input', {
                  type: 'password',
                  name: 'again',
                  autocomplete: 'new-password',
                  value: again,
                  onInput: (e: Event) => setAgain((e.target as HTMLInputElement).value),
                }),
              ),
              h('button', { type: 'submit', class: 'primary' }, 'Set my password'),
            ]
          : null,
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    ),
  );
}
