import type { CurrentUser, Reply } from '@caravan/contracts';
import { authHeaders, clearAuthToken, getAuthToken } from '@caravan/ui-kit';

/** Checks a stored token at start (spec §2): the current user, or null after clearing a dead token. */
export async function checkStoredSession(): Promise<CurrentUser | null> {
  if (!getAuthToken()) return null;
  try {
    const res = await fetch('/api/user_current', { headers: authHeaders() });
    const reply = (await res.json()) as Reply<CurrentUser>;
    if (reply.ok) return reply.result;
  } catch {
    return null;
  }
  clearAuthToken();
  return null;
}

export async function logout() {
  await fetch('/api/logout', { method: 'POST', headers: authHeaders() }).catch(() => undefined);
  clearAuthToken();
}

const darkKey = (userId: number) => `darkMode:${userId}`;
export const isDarkMode = (userId: number) => localStorage.getItem(darkKey(userId)) === '1';
export const applyDarkMode = (on: boolean) => document.body.classList.toggle('bp6-dark', on);
export function setDarkMode(userId: number, on: boolean) {
  localStorage.setItem(darkKey(userId), on ? '1' : '0');
  applyDarkMode(on);
}
