// The signed-in session, kept in sessionStorage: it survives a reload, not the closing of the tab.
import type { SessionUser } from './types.js';

export interface Session {
  token: string;
  expiresAt: string;
  user: SessionUser;
}
const KEY = 'sightline.session';

export function loadSession(): Session | undefined {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    if (!s || Date.parse(s.expiresAt) <= Date.now()) return undefined;
    return s;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  // Signed out: what the tab kept for this user (the list's filters) goes too, not to the next one.
  else sessionStorage.clear();
}

export const canWrite = (s: Session) => ['owner', 'admin', 'editor', 'application'].includes(s.user.role);
