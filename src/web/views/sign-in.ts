// Sign-in through POST /login; the API's errors are shown as sentences.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { ApiProblem, inWords, request } from '../api.js';
import type { Session } from '../session.js';

/**
 * The sign-in form; with `again`, the dialog over a view whose session ended while it held unsaved work: the same
 * user signs in again (the username is fixed) and the view, with its work, stays as it was.
 */
export function SignIn(props: {
  onSignedIn: (s: Session) => void;
  notice?: string | undefined;
  again?: { username: string; onDiscard: () => void };
}) {
  const { again } = props;
  const [username, setUsername] = useState(again?.username ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(props.notice);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    if (!username || !password) {
      setError('Enter both a username and a password.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const res = await request<{ data: Session }>('/login', undefined, {
        method: 'POST',
        body: { username, password },
      });
      props.onSignedIn({ token: res.data.token, expiresAt: res.data.expiresAt, user: res.data.user });
    } catch (err) {
      // A refused login body can only mean a missing field here; elsewhere invalid_body means something else.
      setError(
        err instanceof ApiProblem && err.code === 'invalid_body'
          ? 'Enter both a username and a password.'
          : inWords(err),
      );
    } finally {
      setBusy(false);
    }
  }

  const form = h(
    'form',
    { onSubmit: submit, 'aria-label': again ? 'Sign in again' : 'Sign in' },
    h('h1', { id: 'signin-title' }, again ? 'Sign in again' : 'Sightline'),
    h(
      'label',
      null,
      'Username',
      h('input', {
        name: 'username',
        autocomplete: 'username',
        value: username,
        readOnly: again !== undefined,
        onInput: (e: Event) => setUsername((e.target as HTMLInputElement).value),
      }),
    ),
    h(
      'label',
      null,
      'Password',
      h('input', {
        name: 'password',
        type: 'password',
        autocomplete: 'current-password',
        value: password,
        autoFocus: again !== undefined,
        onInput: (e: Event) => setPassword((e.target as HTMLInputElement).value),
      }),
    ),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    h(
      'button',
      { type: 'submit', class: again ? 'primary' : undefined, disabled: busy },
      busy ? 'Signing in…' : 'Sign in',
    ),
    again
      ? h(
          'button',
          { type: 'button', class: 'discard danger', disabled: busy, onClick: again.onDiscard },
          'Discard the corrections and sign out',
        )
      : null,
  );
  if (!again) return h('main', { class: 'signin' }, form);
  return h(
    'div',
    { class: 'signin again', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'signin-title' },
    form,
  );
}
