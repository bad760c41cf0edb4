// Sign-in through POST /login; the API's errors are shown as sentences.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { ApiProblem, inWords, request } from '../api.js';
import type { Session } from '../session.js';

export function SignIn(props: { onSignedIn: (s: Session) => void; notice?: string | undefined }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(props.notice);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    if (!username || !password) { setError('Enter both a username and a password.'); return; }
    setBusy(true);
    setError(undefined);
    try {
      const res = await request<{ data: Session }>('/login', undefined, { method: 'POST', body: { username, password } });
      props.onSignedIn({ token: res.data.token, expiresAt: res.data.expiresAt, user: res.data.user });
    } catch (err) {
      // A refused login body can only mean a missing field here; elsewhere invalid_body means something else.
      setError(err instanceof ApiProblem && err.code === 'invalid_body' ? 'Enter both a username and a password.' : inWords(err));
    } finally {
      setBusy(false);
    }
  }

  return h('main', { class: 'signin' },
    h('form', { onSubmit: submit, 'aria-label': 'Sign in' },
      h('h1', null, 'Sightline'),
      h('label', null, 'Username', h('input', { name: 'username', autocomplete: 'username', value: username, onInput: (e: Event) => setUsername((e.target as HTMLInputElement).value) })),
      h('label', null, 'Password', h('input', { name: 'password', type: 'password', autocomplete: 'current-password', value: password, onInput: (e: Event) => setPassword((e.target as HTMLInputElement).value) })),
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
      h('button', { type: 'submit', disabled: busy }, busy ? 'Signing in…' : 'Sign in')));
}
