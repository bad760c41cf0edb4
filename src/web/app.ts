// The shell: sign-in, then the recordings list, region search or one recording's editor (hash routes).
import { h, type ComponentChild } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, request, type RequestOptions } from './api.js';
import { go, hasUnsavedWork, mayLeave, route } from './format.js';
import { loadSession, saveSession, type Session } from './session.js';
import { userText, userTextPlain } from './user-text.js';
import { SignIn } from './views/sign-in.js';
import { Recordings } from './views/recordings.js';
import { RegionSearch } from './views/region-search.js';
import { EditorView } from './views/editor-view.js';
import { AdminView, isAdministrator } from './views/admin/admin-view.js';
import { InviteView } from './views/invite.js';
import type { Call } from './call.js';

/** Puts the focus on a view's content (a `main` is no control, so it takes focus only when told it may). */
function focusContent(main: HTMLElement): void {
  main.tabIndex = -1;
  main.focus({ preventScroll: true });
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [notice, setNotice] = useState<string | undefined>();
  // The session ended while the open view held unsaved corrections: it stays, under a dialog to sign in again.
  const [ended, setEnded] = useState(false);
  const [where, setWhere] = useState(route);

  useEffect(() => {
    const onHash = (e: HashChangeEvent) => {
      const to = route();
      const from = route(new URL(e.oldURL).hash);
      // The hash has already changed (a link, Back): staying means putting it back, without a history entry.
      if ((to.name !== from.name || to.arg !== from.arg) && !mayLeave()) {
        history.replaceState(history.state, '', e.oldURL);
        return;
      }
      setWhere(to);
    };
    // An in-app link asks before it moves, so a cancelled one leaves no history entry behind.
    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element).closest?.('a[href^="#"]');
      if (!link || e.defaultPrevented) return;
      const to = route(link.getAttribute('href')!);
      const from = route();
      if ((to.name !== from.name || to.arg !== from.arg) && !mayLeave()) e.preventDefault();
    };
    addEventListener('hashchange', onHash);
    addEventListener('click', onClick, true);
    return () => {
      removeEventListener('hashchange', onHash);
      removeEventListener('click', onClick, true);
    };
  }, []);

  const signOut = async (message?: string) => {
    const token = session?.token;
    saveSession(undefined);
    setSession(undefined);
    setEnded(false);
    setNotice(message);
    if (token && !message) await request('/logout', token, { method: 'POST', body: {} }).catch(() => {});
  };

  // A new page for assistive technology too: its title names it, and focus starts at its content (a screen
  // reader would otherwise stay on the link or button that led here, or on nothing once that is gone).
  const page = !session
    ? 'Sign in'
    : where.name === 'malformed'
      ? 'Malformed link'
      : where.name === 'recording'
        ? where.arg
        : where.name === 'search'
          ? 'Region search'
          : where.name === 'admin'
            ? 'Administration'
            : 'Recordings';
  useEffect(() => {
    document.title = `${userTextPlain(page)} · Sightline`;
    const main = document.querySelector<HTMLElement>('.app main, main.signin');
    if (main && !main.contains(document.activeElement)) focusContent(main);
  }, [page]);

  // An invitation is redeemed signed out: the link is for someone who has no password yet.
  if (where.name === 'invite' && where.arg) return h(InviteView, { token: where.arg });
  if (!session) {
    return h(SignIn, {
      notice,
      onSignedIn: (s) => {
        saveSession(s);
        setNotice(undefined);
        setSession(s);
      },
    });
  }

  const call: Call = async <T>(path: string, options?: RequestOptions) => {
    try {
      return await request<T>(path, session.token, options);
    } catch (err) {
      if (err instanceof ApiProblem && err.status === 401) {
        if (hasUnsavedWork()) setEnded(true);
        else void signOut('Your session has ended. Sign in again.');
      }
      throw err;
    }
  };

  let view: ComponentChild;
  if (where.name === 'malformed') {
    view = h(
      'main',
      { class: 'not-found' },
      h('p', { class: 'error', role: 'alert' }, 'This link is malformed: nothing can be found at it.'),
      h('a', { href: '#/recordings' }, '← Recordings'),
    );
  } else if (where.name === 'recording' && where.arg)
    view = h(EditorView, {
      key: where.arg,
      call,
      session,
      mediaKey: where.arg,
      ...(where.frame === undefined ? {} : { frame: where.frame }),
    });
  else if (where.name === 'search') view = h(RegionSearch, { call });
  else if (where.name === 'admin') view = h(AdminView, { call, session, part: where.arg });
  else view = h(Recordings, { call });

  const signInAgain = ended
    ? h(SignIn, {
        notice: 'Your session has ended. Sign in again to keep your unsaved corrections, then save them.',
        again: {
          username: session.user.username,
          onDiscard: () => {
            if (mayLeave()) void signOut('Your session has ended. Sign in again.');
          },
        },
        onSignedIn: (s) => {
          // The same user (usernames are unique): the corrections are theirs to save. Another account of that name (the
          // user was deleted and made again) may not save them: its new session is ended, and the tab signs out.
          if (s.user.id !== session.user.id) {
            void request('/logout', s.token, { method: 'POST', body: {} }).catch(() => {});
            void signOut('This is another account of that name: its unsaved corrections are lost. Sign in again.');
            return;
          }
          saveSession(s);
          setSession(s);
          setEnded(false);
          // Back where the user was: the view's own content (the dialog that held the focus is gone).
          requestAnimationFrame(() => {
            const main = document.querySelector<HTMLElement>('.app main');
            if (main) focusContent(main);
          });
        },
      })
    : null;

  return h(
    'div',
    { class: 'shell' },
    h(
      'div',
      { class: 'app', inert: ended },
      h(
        'header',
        null,
        h('a', { class: 'brand', href: '#/recordings' }, 'Sightline'),
        h(
          'nav',
          null,
          h('a', { href: '#/recordings', class: where.name === 'recordings' ? 'active' : '' }, 'Recordings'),
          h('a', { href: '#/search', class: where.name === 'search' ? 'active' : '' }, 'Region search'),
          isAdministrator(session)
            ? h('a', { href: '#/admin/people', class: where.name === 'admin' ? 'active' : '' }, 'Administration')
            : null,
        ),
        h(
          'span',
          { class: 'who' },
          userText(session.user.username),
          ' · ',
          userText(session.user.organisation.name),
          ` · ${session.user.role}`,
        ),
        h(
          'button',
          {
            class: 'signout',
            onClick: () => {
              if (!mayLeave()) return;
              void signOut();
              go('recordings');
            },
          },
          'Sign out',
        ),
      ),
      view,
    ),
    signInAgain,
  );
}
