import type { CurrentUser } from '@caravan/contracts';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { setCurrentUser } from './session';
import { createAppStore } from './store';

/**
 * A small world for component tests (jest project 'web'): the app's store with a signed-in user, a
 * router, and the gateway's POST /api/call_pg_func answered in-process by a table of procedures. The
 * translations are the app's own (jest-web-setup). Only the HTTP transport is faked; the components,
 * the store and RTK Query run as in the browser.
 */

/** A procedure's answer: its result, or a refusal with the user's message. */
export class Refusal {
  constructor(readonly message: string) {}
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Params = any;
export type Answer = (params: Params) => unknown;
export type Answers = Record<string, Answer>;
export type Call = { method: string; params: Params; idempotencyKey: string | null };

const user = (id: number, email: string, first_name: string, role: CurrentUser['role']): CurrentUser => ({
  id,
  email,
  fullname: first_name,
  first_name,
  last_name: '',
  phone: null,
  avatar: null,
  role,
  options: { state: 'working', settings: {} },
});
export const USERS = {
  admin: user(1, 'admin@caravan.local', 'Администратор', ['admin']),
  operator: user(3, 'operator@caravan.local', 'Оператор', ['operator']),
  client: user(2, 'client@caravan.local', 'Клиент', ['client']),
};

/**
 * The fake gateway: answers each procedure of POST /api/call_pg_func from `answers[method]`, and any
 * other POST /api/<path> (modul_sbp_create…) from `answers['/api/<path>']` with its JSON body; records
 * every call. An answer returns the result, or a Refusal (or throws) for `ok: false` with its message;
 * a call with no answer is refused with a message naming it, so a test sees what it did not expect.
 */
export function fakeGateway(answers: Answers) {
  const calls: Call[] = [];
  const reply = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const refuse = (message: string) => reply({ ok: false, result: null, message });
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, 'http://caravan.test').pathname;
    const body = JSON.parse(String(init?.body ?? '{}')) as Params;
    const rpc = path === '/api/call_pg_func';
    const method: string = rpc ? body.method : path;
    const params: Params = rpc ? body.params : body;
    const headers = new Headers(init?.headers);
    calls.push({ method, params, idempotencyKey: headers.get('Idempotency-Key') });
    const answer = answers[method];
    if (!answer) return refuse(`fakeGateway: no answer for ${method}`);
    try {
      const result = await answer(params);
      if (result instanceof Refusal) return refuse(result.message);
      return reply({ ok: true, result });
    } catch (e) {
      return refuse((e as Error).message);
    }
  };
  /** The calls of one method, in order. */
  const of = (method: string) => calls.filter((c) => c.method === method);
  return { calls, of, fetch };
}
export type FakeGateway = ReturnType<typeof fakeGateway>;

/** Where the router stands now (a list keeps its search, sort and filters in the URL). */
let currentLocation = '';
function LocationProbe() {
  const location = useLocation();
  currentLocation = location.pathname + location.search;
  return null;
}
export const locationNow = () => currentLocation;

// each test gets the real fetch back (the world replaces it while it renders)
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/**
 * Renders `ui` in the world: `path` is its route pattern, `url` where the router starts; answers the
 * gateway from `answers` as `user` (an admin unless told).
 */
export function renderInWorld(
  ui: ReactElement,
  options: { answers?: Answers; user?: CurrentUser | null; url?: string; path?: string } = {},
) {
  const gateway = fakeGateway(options.answers ?? {});
  globalThis.fetch = gateway.fetch as typeof globalThis.fetch;
  const store = createAppStore();
  store.dispatch(setCurrentUser(options.user === undefined ? USERS.admin : options.user));
  const url = options.url ?? '/';
  const rendered = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[url]}>
        <LocationProbe />
        <Routes>
          <Route path={options.path ?? url.split('?')[0]} element={ui} />
          <Route path="*" element={<div data-testid="elsewhere" />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { ...rendered, store, gateway };
}

/** A list procedure's answer of these rows (one page, the count exact). */
export const listOf = <T extends object>(items: T[]) => ({
  items,
  total: items.length,
  total_exact: true,
  next_cursor: null,
});
