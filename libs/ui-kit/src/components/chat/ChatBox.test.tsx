import { CHAT_AREA_HEIGHT_PX, CHAT_MESSAGES, CHAT_NEW_BUTTON_DELAY_MS } from '@caravan/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { listOf, renderInWorld, USERS } from '../../testing';
import { ChatBox, ChatUnreadMark } from './ChatBox';

const message = (id: number, author_id: number, fullname: string, title: string) => ({
  id,
  chat_id: 12,
  author_id,
  fullname,
  avatar: null,
  title,
  files: [],
  deleted: false,
  created_at: '2026-03-01T09:00:00Z',
  updated_at: '2026-03-01T09:00:00Z',
});
const chat = (unread: number) => ({
  id: 12,
  table_name: 'client_order',
  table_id: 7,
  deleted: false,
  unread_count: unread,
  next_cursor: null,
  message_list: [
    message(1, USERS.client.id, 'Клиент', 'Когда будет выкуп?'),
    message(2, USERS.operator.id, 'Оператор', 'Завтра утром'),
  ],
});

/** Lets the fake gateway's answers settle without moving the (fake) clock. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await act(async () => await Promise.resolve());
};

describe('the chat box of an order without a chat', () => {
  afterEach(() => jest.useRealTimers());

  it('shows the new-chat button only once 400 ms have passed', async () => {
    jest.useFakeTimers();
    const { gateway } = renderInWorld(<ChatBox tableId={7} />, {
      user: USERS.client,
      answers: { chat_list: () => listOf([]) },
    });
    await settle();
    expect(gateway.of('chat_list')[0]!.params).toEqual({
      filters: { table_name: 'client_order', table_id: 7 },
      per_page: 1,
    });
    act(() => jest.advanceTimersByTime(CHAT_NEW_BUTTON_DELAY_MS - 1));
    expect(screen.queryByTestId('chat-new')).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByTestId('chat-new')).toHaveTextContent(CHAT_MESSAGES.newChat);
  });

  it('opens the chat of the order with the button', async () => {
    let opened = false;
    const { gateway } = renderInWorld(<ChatBox tableId={7} />, {
      user: USERS.client,
      answers: {
        chat_list: () => listOf(opened ? [chat(0)] : []),
        chat_update: () => ((opened = true), chat(0)),
        chat_get_by_id: () => chat(0),
      },
    });
    await userEvent.click(await screen.findByTestId('chat-new'));
    expect(gateway.of('chat_update')[0]!.params).toEqual({ id: -1, table_name: 'client_order', table_id: 7 });
    expect(await screen.findByText('Завтра утром')).toBeInTheDocument();
  });
});

describe('the chat box of an order with a chat', () => {
  const answers = (unread: number) => ({
    chat_list: () => listOf([chat(unread)]),
    chat_get_by_id: () => chat(unread),
    chat_message_update: (p: object) => ({ ...message(3, USERS.client.id, 'Клиент', ''), ...p, id: 3 }),
    chat_mark_read: () => ({ chat_id: 12, unread_count: 0 }),
    chat_unread_list: () => [],
  });

  it('shows the messages oldest first in a 400 px area, its own on the right, and what is unread', async () => {
    renderInWorld(<ChatBox tableId={7} />, { user: USERS.client, answers: answers(1) });
    const shown = await screen.findAllByTestId('chat-message');
    expect(shown.map((m) => m.textContent)).toEqual([
      expect.stringContaining('Когда будет выкуп?'),
      expect.stringContaining('Завтра утром'),
    ]);
    expect(shown[0]).toHaveClass('caravan-chat-own');
    expect(shown[1]).not.toHaveClass('caravan-chat-own');
    expect(screen.getByTestId('chat-area')).toHaveStyle({ height: `${CHAT_AREA_HEIGHT_PX}px` });
    expect(screen.getByTestId('chat-unread')).toHaveTextContent('1 новое сообщение');
  });

  it('sends with Enter, refuses an empty message without a call, and marks the chat read once used', async () => {
    const { gateway } = renderInWorld(<ChatBox tableId={7} />, { user: USERS.client, answers: answers(1) });
    const input = await screen.findByLabelText('сообщение…');
    await userEvent.click(screen.getByTestId('chat-send'));
    expect(await screen.findByText(CHAT_MESSAGES.empty)).toBeInTheDocument();
    expect(gateway.of('chat_message_update')).toHaveLength(0);
    await waitFor(() => expect(gateway.of('chat_mark_read')).toHaveLength(1));
    expect(gateway.of('chat_mark_read')[0]!.params).toEqual({ chat_id: 12, message_id: 2 });

    await userEvent.type(input, 'Спасибо!{Enter}');
    await waitFor(() => expect(gateway.of('chat_message_update')).toHaveLength(1));
    expect(gateway.of('chat_message_update')[0]!.params).toEqual({
      id: -1,
      chat_id: 12,
      title: 'Спасибо!',
      files: [],
    });
    await waitFor(() => expect(input).toHaveValue(''));
  });
});

describe('a chat box that comes into view', () => {
  /** The browser's IntersectionObserver, told by the test when the box is on the screen. */
  let show: (visible: boolean) => void = () => {};
  beforeEach(() => {
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = class {
      constructor(private readonly report: (entries: { isIntersecting: boolean }[]) => void) {}
      observe() {
        show = (visible) => act(() => this.report([{ isIntersecting: visible }]));
      }
      disconnect() {}
    };
  });
  afterEach(() => delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver);

  it('marks its messages read once the reader has it on the screen, without a click', async () => {
    const { gateway } = renderInWorld(<ChatBox tableId={7} />, {
      user: USERS.operator,
      answers: {
        chat_list: () => listOf([chat(1)]),
        chat_get_by_id: () => chat(1),
        chat_mark_read: () => ({ chat_id: 12, unread_count: 0 }),
        chat_unread_list: () => [],
      },
    });
    await screen.findAllByTestId('chat-message');
    show(false);
    await settle();
    expect(gateway.of('chat_mark_read')).toHaveLength(0);
    show(true);
    await waitFor(() => expect(gateway.of('chat_mark_read')).toHaveLength(1));
    expect(gateway.of('chat_mark_read')[0]!.params).toEqual({ chat_id: 12, message_id: 2 });
  });
});

test("an order list's row shows its chat's unread count; nothing when all is read", async () => {
  const { gateway } = renderInWorld(
    <>
      <ChatUnreadMark tableId={7} />
      <ChatUnreadMark tableId={8} />
    </>,
    {
      user: USERS.operator,
      answers: {
        chat_unread_list: () => [{ chat_id: 12, table_name: 'client_order', table_id: 7, unread: 3 }],
      },
    },
  );
  expect(await screen.findByTestId('chat-unread-mark')).toHaveTextContent('3');
  expect(screen.getAllByTestId('chat-unread-mark')).toHaveLength(1);
  expect(gateway.of('chat_unread_list')).toHaveLength(1);
});
