import { AnchorButton, Button, Card, FileInput, H5, Spinner, Tag, TextArea } from '@blueprintjs/core';
import {
  CHAT_AREA_HEIGHT_PX,
  CHAT_MESSAGES,
  CHAT_NEW_BUTTON_DELAY_MS,
  CHAT_PAGE_SIZE,
  formatDisplayDateTime,
  type Attachment,
  type ChatMessage,
  type ChatTable,
} from '@caravan/contracts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useLazyDocumentListQuery } from '../../entityApi';
import { useCurrentUser } from '../../session';
import { toast } from '../../toaster';
import { uploadFiles } from '../../upload';
import { useServerEvents } from '../../useServerEvents';
import {
  useChatGetQuery,
  useChatMarkReadMutation,
  useChatOfQuery,
  useChatOpenMutation,
  useChatSendMutation,
  useChatUnreadQuery,
} from './api';

/** True once `ms` have passed since the component appeared (the spec's 400 ms before the new-chat button). */
function useAfter(ms: number) {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setPassed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return passed;
}

function Avatar({ message }: { message: ChatMessage }) {
  if (message.avatar) return <img className="caravan-chat-avatar" src={message.avatar} alt="" />;
  const initials = message.fullname
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return <span className="caravan-chat-avatar">{initials || '?'}</span>;
}

function MessageView({ message, own }: { message: ChatMessage; own: boolean }) {
  return (
    <div className={`caravan-chat-message${own ? ' caravan-chat-own' : ''}`} data-testid="chat-message">
      <Avatar message={message} />
      <div className="caravan-chat-bubble">
        <div className="caravan-chat-meta">
          <b>{message.fullname}</b> <small>{formatDisplayDateTime(message.created_at)}</small>
        </div>
        {message.title ? <div className="caravan-chat-text">{message.title}</div> : null}
        {message.files
          .filter((f) => !f.deleted)
          .map((f) => (
            <AnchorButton
              key={f.file}
              href={f.file}
              target="_blank"
              rel="noreferrer"
              icon="paperclip"
              variant="minimal"
              size="small"
              text={f.name ?? f.file}
            />
          ))}
      </div>
    </div>
  );
}

/** The message being written: text (Enter sends, Shift+Enter breaks the line) and files uploaded first. */
function Composer({ chatId, onSent }: { chatId: number; onSent(): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Attachment[]>([]);
  const [uploading, setUploading] = useState(false);
  const [send, sending] = useChatSendMutation();
  const submit = async () => {
    if (text.trim() === '' && !files.length) return void toast(CHAT_MESSAGES.empty, 'danger');
    try {
      await send({ chat_id: chatId, title: text, files }).unwrap();
      setText('');
      setFiles([]);
      onSent();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  const attach = async (input: HTMLInputElement) => {
    const chosen = Array.from(input.files ?? []);
    input.value = '';
    if (!chosen.length) return;
    setUploading(true);
    const reply = await uploadFiles('file', chosen);
    setUploading(false);
    if (!reply.ok) return void toast(reply.message, 'danger');
    setFiles((list) => [
      ...list,
      ...reply.result.map((u) => ({ file: u.file, name: u.name, deleted: false })),
    ]);
  };
  return (
    <div className="caravan-chat-composer">
      {files.map((f, i) => (
        <Tag
          key={f.file}
          icon="paperclip"
          onRemove={() => setFiles((list) => list.filter((_, j) => j !== i))}
        >
          {f.name}
        </Tag>
      ))}
      <TextArea
        fill
        rows={2}
        value={text}
        placeholder={t('chat.placeholder')}
        aria-label={t('chat.placeholder')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void submit();
          }
        }}
      />
      <div className="caravan-chat-actions">
        <FileInput
          disabled={uploading}
          text={uploading ? t('common.loading') : t('chat.attach')}
          buttonText={t('files.browse')}
          inputProps={{ multiple: true, 'aria-label': t('chat.attach') }}
          onInputChange={(e) => void attach(e.currentTarget as HTMLInputElement)}
        />
        <Button
          intent="primary"
          icon="send-message"
          text={t('chat.send')}
          loading={sending.isLoading}
          onClick={() => void submit()}
          data-testid="chat-send"
        />
      </div>
    </div>
  );
}

/** Whether at least half of the element is on the screen (false where the browser cannot tell). */
function useInView(element: RefObject<HTMLElement | null>, mounted: boolean) {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const el = element.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), {
      threshold: 0.5,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [element, mounted]);
  return inView;
}

/** One chat's messages, live (SSE chat_item), with the reader's unread count and the composer. */
function ChatThread({ chatId }: { chatId: number }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const chat = useChatGetQuery(chatId);
  const [markRead] = useChatMarkReadMutation();
  const [loadOlder, older] = useLazyDocumentListQuery();
  const [earlier, setEarlier] = useState<{ items: ChatMessage[]; cursor: string | null } | null>(null);
  const area = useRef<HTMLDivElement>(null);
  const messages = chat.data?.message_list ?? [];
  const unread = chat.data?.unread_count ?? 0;
  useServerEvents('chat_item', chatId, () => void chat.refetch());
  useEffect(() => {
    area.current?.scrollTo?.({ top: area.current.scrollHeight });
  }, [messages.length]);
  /**
   * The reader has seen the messages when the box is on their screen in a visible tab, or when they act in it
   * (a click, typing, sending).
   */
  const markedUpTo = useRef(0);
  const newest = messages[messages.length - 1]?.id ?? 0;
  const seen = () => {
    // once per newest message: a click and the focus it brings are one look
    if (unread === 0 || markedUpTo.current >= newest) return;
    markedUpTo.current = newest;
    void markRead({ chat_id: chatId, message_id: newest });
  };
  const inView = useInView(area, Boolean(chat.data));
  useEffect(() => {
    if (!inView) return;
    const look = () => {
      if (document.visibilityState === 'visible') seen();
    };
    look();
    document.addEventListener('visibilitychange', look);
    return () => document.removeEventListener('visibilitychange', look);
    // a newer message or a new count while the box is in view is seen too
  }, [inView, newest, unread]);
  const showEarlier = async () => {
    const cursor = earlier
      ? earlier.cursor
      : ((chat.data as { next_cursor?: string | null })?.next_cursor ?? null);
    if (!cursor) return;
    const page = await loadOlder({
      entity: 'chat_message',
      params: {
        where_param: [{ field: 'chat_id', op: '=', value: chatId }],
        order_by: 'id desc',
        per_page: CHAT_PAGE_SIZE,
        cursor,
      },
    }).unwrap();
    setEarlier((prev) => ({
      items: [...(page.items as unknown as ChatMessage[]).reverse(), ...(prev?.items ?? [])],
      cursor: page.next_cursor ?? null,
    }));
  };
  const moreCursor = earlier ? earlier.cursor : (chat.data as { next_cursor?: string | null })?.next_cursor;
  if (!chat.data) return <Spinner size={20} />;
  return (
    <div onPointerDown={seen} onFocusCapture={seen}>
      {unread > 0 && (
        <Tag intent="primary" round data-testid="chat-unread">
          {t('chat.unread', { count: unread })}
        </Tag>
      )}
      <div
        ref={area}
        className="caravan-chat-area"
        style={{ height: CHAT_AREA_HEIGHT_PX }}
        data-testid="chat-area"
      >
        {moreCursor ? (
          <Button
            variant="minimal"
            size="small"
            loading={older.isFetching}
            onClick={() => void showEarlier()}
          >
            {t('chat.earlier')}
          </Button>
        ) : null}
        {[...(earlier?.items ?? []), ...messages].map((m) => (
          <MessageView key={m.id} message={m} own={m.author_id === user?.id} />
        ))}
        {!messages.length && <p className="caravan-chat-empty">{CHAT_MESSAGES.noMessages}</p>}
      </div>
      <Composer chatId={chatId} onSent={seen} />
    </div>
  );
}

/**
 * The chat box (product-core §2): the chat of one object (an order) between its client, its operator
 * and the admins. Without a chat, the new-chat button appears after 400 ms (not flashing while the
 * chat is being looked up); the message area is 400 px high. New messages arrive live over the
 * browser's one stream (docs/adr/0017, 0023).
 */
export function ChatBox({ tableId, tableName = 'client_order' }: { tableId: number; tableName?: ChatTable }) {
  const { t } = useTranslation();
  const found = useChatOfQuery({ table_name: tableName, table_id: tableId });
  const [open, opening] = useChatOpenMutation();
  const late = useAfter(CHAT_NEW_BUTTON_DELAY_MS);
  const chatId = found.data?.items[0]?.id;
  // the other side may open the chat while this card is open: the order's stream says so
  useServerEvents('client_order_item', tableName === 'client_order' ? tableId : undefined, (e) => {
    if ((e as { entity?: string }).entity === 'chat' && !chatId) void found.refetch();
  });
  const openChat = async () => {
    try {
      await open({ table_name: tableName, table_id: tableId }).unwrap();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
      void found.refetch();
    }
  };
  return (
    <Card className="caravan-order-section caravan-chat" data-testid="chat-box">
      <H5>{t('chat.title')}</H5>
      {chatId ? (
        <ChatThread chatId={chatId} />
      ) : late && found.isSuccess ? (
        <Button
          icon="chat"
          loading={opening.isLoading}
          onClick={() => void openChat()}
          data-testid="chat-new"
        >
          {CHAT_MESSAGES.newChat}
        </Button>
      ) : null}
    </Card>
  );
}

/**
 * The unread messages of one object's chat, as a small mark (an order list's row): one request
 * (chat_unread_list) serves every row; nothing when all is read.
 */
export function ChatUnreadMark({
  tableId,
  tableName = 'client_order',
}: {
  tableId: number;
  tableName?: ChatTable;
}) {
  const { t } = useTranslation();
  const unread = useChatUnreadQuery();
  const count = unread.data?.find((c) => c.table_name === tableName && c.table_id === tableId)?.unread ?? 0;
  if (!count) return null;
  return (
    <Tag
      intent="primary"
      round
      icon="chat"
      data-testid="chat-unread-mark"
      title={t('chat.unread', { count })}
    >
      {count}
    </Tag>
  );
}
