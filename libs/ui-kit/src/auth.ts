/** The session token, kept where the spec keeps it: local storage, sent as `Auth-token`. */
export const AUTH_TOKEN_KEY = 'authToken';
export const UNAUTHORIZED_EVENT = 'caravan:unauthorized';

export const getAuthToken = (): string | null => localStorage.getItem(AUTH_TOKEN_KEY);
export const setAuthToken = (token: string) => localStorage.setItem(AUTH_TOKEN_KEY, token);
export const clearAuthToken = () => localStorage.removeItem(AUTH_TOKEN_KEY);

/** Tells the shell that the session is gone (any 401 from the gateway), so it shows the login page. */
export const signalUnauthorized = () => window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));

export function authHeaders(): Record<string, string> {
  const token = getAuthToken();
  return token ? { 'Auth-token': token } : {};
}
