import type { Migration } from '@caravan/service-kit';

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A money operation in one statement (docs/adr/0027-ledger-in-one-round-trip.md): `ledger_post` locks
 * the wallets in id order, finds a repeat by its idempotency key, checks every movement (the wallet is
 * live, the amount positive, no balance below zero) and writes the fin_operations, the balances, their
 * history and their events in one call from the service. A refusal returns its reason and writes
 * nothing; the service words it. Rows go into history and events as the service's entity store writes
 * them (numeric as text, time as JavaScript's ISO string), so readers cannot tell the two apart.
 * Given the caller's request (a procedure that keeps its Idempotency-Key itself, service-kit
 * `keysItself`), it also keeps the key's row as the registry would: the key with other params is
 * refused, a repeat finds the movements of its first call; the reply is not stored (rebuilt from them).
 */
export const ledgerPost: Migration = {
  name: '041_ledger_post',
  async up(db, schema) {
    const s = quoted(schema);
    // twins of the list's sort indexes fin_operation_{wallet,client}_id_sort: two index writes per movement
    await db.raw(`drop index if exists ${s}.fin_operation_wallet_id_id_index`);
    await db.raw(`drop index if exists ${s}.fin_operation_client_id_id_index`);
    for (const sql of ledgerFunctions(schema)) await db.raw(sql);
  },
};

/**
 * The wallets' events carry `prev` (the balance before), as the entity store's updated events do
 * since the notifications (ADR 0021): the functions as they are now, created or replaced.
 */
export const ledgerPostPrev: Migration = {
  name: '042_ledger_post_prev',
  async up(db, schema) {
    for (const sql of ledgerFunctions(schema)) await db.raw(sql);
  },
};

/** The events keep the caller's trace context (`events.trace`), as the outbox's own writes do (ADR 0033). */
export const ledgerPostTrace: Migration = {
  name: '043_ledger_post_trace',
  async up(db, schema) {
    for (const sql of ledgerFunctions(schema)) await db.raw(sql);
  },
};

/**
 * `ledger_post_many`: transfers that arrived together posted in one transaction, one commit for all (ADR 0027,
 * addendum: group commit). The functions as they are now, created or replaced.
 */
export const ledgerPostMany: Migration = {
  name: '044_ledger_post_many',
  async up(db, schema) {
    for (const sql of ledgerFunctions(schema)) await db.raw(sql);
  },
};

/** The ledger's functions, `create or replace`: a migration changing them runs the current text. */
function ledgerFunctions(schema: string): string[] {
  const s = quoted(schema);
  return [
    `
create or replace function ${s}.ledger_time(t timestamptz) returns text
language sql stable as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$`,
    // what EntityStore.stored holds of each row: keep in step with the contracts' fields
    `
create or replace function ${s}.ledger_operation_row(f ${s}.fin_operation) returns jsonb
language sql stable as $$
  select jsonb_build_object(
    'id', f.id, 'deleted', f.deleted,
    'created_at', ${s}.ledger_time(f.created_at), 'updated_at', ${s}.ledger_time(f.updated_at),
    'wallet_id', f.wallet_id, 'client_id', f.client_id, 'operator_id', f.operator_id,
    'amount', f.amount::text, 'cause', f.cause, 'comment', f.comment, 'datetime', f.datetime,
    'direction', f.direction, 'sender_id', f.sender_id, 'receiver_id', f.receiver_id, 'state', f.state,
    'type', f.type, 'wallet_amount_before', f.wallet_amount_before::text,
    'wallet_amount_after', f.wallet_amount_after::text, 'idempotency_key', f.idempotency_key,
    'test', f.test)
$$`,
    `
create or replace function ${s}.ledger_wallet_row(w ${s}.wallet) returns jsonb
language sql stable as $$
  select jsonb_build_object(
    'id', w.id, 'deleted', w.deleted,
    'created_at', ${s}.ledger_time(w.created_at), 'updated_at', ${s}.ledger_time(w.updated_at),
    'title', w.title, 'label', w.label, 'client_id', w.client_id, 'operator_id', w.operator_id,
    'currency_id', w.currency_id, 'options', w.options, 'amount', w.amount::text)
$$`,
    `
create or replace function ${s}.ledger_post(
  movements jsonb,      -- [{wallet_id, direction, amount (2 decimals), cause, type, sender_id, receiver_id, comment, test}]
  operation_key text,   -- '' or the operation's idempotency key
  actor jsonb,          -- {user_id, fullname}: who the history and the events name
  events jsonb,         -- {source, type, wallet_topic, operation_topic}
  request jsonb         -- null, or {user_id, key, request_hash}: the caller's Idempotency-Key, kept here
) returns jsonb
-- planning the writes' statement anew at each call cost three times its run (PostgreSQL's choice, by
-- its estimates, for this function): one generic plan per connection
language plpgsql set plan_cache_mode = force_generic_plan as $$
declare
  locked_ids bigint[];
  locked jsonb := '{}';
  lw record;
  movement jsonb;
  target jsonb;
  moved numeric;
  was numeric;
  becomes numeric;
  planned jsonb := '[]';
  created jsonb;
  known_hash text;
begin
  select array_agg(distinct x.wallet_id order by x.wallet_id) into locked_ids
    from jsonb_to_recordset(movements) as x(wallet_id bigint);
  -- in id order: two operations over the same wallets queue, never deadlock
  for lw in
    select id, client_id, operator_id, deleted, amount from ${s}.wallet
     where id = any(locked_ids) order by id for update
  loop
    locked := locked || jsonb_build_object(lw.id::text, jsonb_build_object(
      'client_id', lw.client_id, 'operator_id', lw.operator_id, 'deleted', lw.deleted,
      'before', lw.amount, 'balance', lw.amount));
  end loop;
  -- under the locks: a concurrent repeat waited for the first and finds its rows
  if request is not null then
    select i.request_hash into known_hash from ${s}.idempotency i
     where i.user_id = (request ->> 'user_id')::bigint and i.key = request ->> 'key';
    if known_hash <> request ->> 'request_hash' then
      return jsonb_build_object('refused', 'key_reused');
    end if;
  end if;
  if operation_key <> '' then
    -- every column of the unique index fin_operation_once (a plan for any key must see it is not '')
    select jsonb_agg(${s}.ledger_operation_row(f) order by f.id) into created
      from ${s}.fin_operation f
     where f.wallet_id = any(locked_ids) and f.direction in ('in', 'out')
       and f.idempotency_key = operation_key and f.idempotency_key <> '';
    if created is not null then
      return jsonb_build_object('operations', created, 'repeat', true);
    end if;
  end if;
  for i in 0 .. jsonb_array_length(movements) - 1 loop
    movement := movements -> i;
    target := locked -> (movement ->> 'wallet_id');
    if target is null or (target ->> 'deleted')::boolean then
      return jsonb_build_object('refused', 'wallet_gone');
    end if;
    moved := (movement ->> 'amount')::numeric;
    if moved <= 0 then
      return jsonb_build_object('refused', 'positive');
    end if;
    was := (target ->> 'balance')::numeric;
    becomes := case movement ->> 'direction' when 'in' then was + moved else was - moved end;
    if becomes < 0 then
      return jsonb_build_object('refused', 'not_enough', 'available', was::numeric(14, 2)::text);
    end if;
    locked := jsonb_set(locked, array[movement ->> 'wallet_id', 'balance'], to_jsonb(becomes));
    planned := planned || jsonb_build_array(movement || jsonb_build_object(
      'n', i, 'client_id', target -> 'client_id', 'operator_id', target -> 'operator_id',
      'before', was, 'after', becomes));
  end loop;
  -- kept only with the movements (a refusal keeps nothing); taken meanwhile by other params: refused
  if request is not null and known_hash is null then
    insert into ${s}.idempotency (user_id, key, request_hash)
    values ((request ->> 'user_id')::bigint, request ->> 'key', request ->> 'request_hash')
    on conflict do nothing;
    if not found then
      return jsonb_build_object('refused', 'key_reused');
    end if;
  end if;

  with plan as (
    select * from jsonb_to_recordset(planned) as p(
      n int, wallet_id bigint, client_id bigint, operator_id bigint, amount numeric, cause text,
      comment text, direction text, sender_id bigint, receiver_id bigint, type text, test boolean,
      before numeric, after numeric)
  ), operations as (
    insert into ${s}.fin_operation as f (
      wallet_id, client_id, operator_id, amount, cause, comment, datetime, direction, sender_id,
      receiver_id, state, type, wallet_amount_before, wallet_amount_after, idempotency_key, test)
    select wallet_id, client_id, operator_id, amount, cause, coalesce(comment, ''),
           ${s}.ledger_time(clock_timestamp()), direction, sender_id, receiver_id, 'done', type,
           before, after, operation_key, coalesce(test, false)
      from plan order by n
    returning f.id, ${s}.ledger_operation_row(f) as item
  ), balances as (
    update ${s}.wallet as t set amount = b.balance, updated_at = now()
      from (select key::bigint as id, (value ->> 'before')::numeric as before,
                   (value ->> 'balance')::numeric as balance
              from jsonb_each(locked)) b
     where t.id = any(locked_ids) and t.id = b.id and b.balance <> b.before
    returning t.id, b.before, ${s}.ledger_wallet_row(t) as item
  ), changes as (
    -- prev: the changed fields' values before, as the store's updated events carry them
    select 1 as part, id, 'fin_operation' as entity, 'created' as op, 'created' as field,
           'null'::jsonb as old_value, item as new_value, item, null::jsonb as prev,
           events ->> 'operation_topic' as topic
      from operations
    union all
    select 2, id, 'wallet', 'updated', 'amount', to_jsonb(before::numeric(14, 2)::text),
           item -> 'amount', item, jsonb_build_object('amount', before::numeric(14, 2)::text),
           events ->> 'wallet_topic'
      from balances
  ), recorded as (
    insert into ${s}.history (table_name, item_id, user_id, user_full_name, field, old_value, new_value)
    select entity, id, (actor ->> 'user_id')::bigint, coalesce(actor ->> 'fullname', ''), field,
           old_value, new_value
      from changes order by part, id
  ), published as (
    -- each event's seq is its outbox row's id, drawn in this order (volatile subquery: never flattened)
    insert into ${s}.outbox (id, event_id, topic, key, trace, event)
    select e.seq, e.event_id, e.topic, e.id::text, nullif(events -> 'trace', 'null'::jsonb),
           jsonb_build_object(
             'id', e.event_id, 'type', events ->> 'type', 'version', 1,
             'occurred_at', ${s}.ledger_time(clock_timestamp()), 'source', events ->> 'source',
             'key', e.id::text, 'actor', actor -> 'user_id', 'seq', e.seq,
             'data', jsonb_build_object('entity', e.entity, 'id', e.id, 'op', e.op, 'row', e.item)
                     || case when e.prev is null then '{}' else jsonb_build_object('prev', e.prev) end)
      from (select nextval('${s}.outbox_id_seq'::regclass) as seq, c.*
              from (select gen_random_uuid() as event_id, changes.* from changes order by part, id) c) e
  )
  select jsonb_agg(item order by id) into created from operations;
  return jsonb_build_object('operations', created);
end $$`,
    `
-- operations posted one after another in the caller's transaction, each as ledger_post alone would (a refused
-- one writes nothing and the next goes on); one reply per operation, in order. Every wallet of them is locked
-- first, in id order: two such batches (two replicas) or a batch and a single operation queue, never deadlock.
create or replace function ${s}.ledger_post_many(
  operations jsonb      -- [{movements, key, actor, events, request}]: ledger_post's arguments
) returns jsonb
language plpgsql as $$
declare
  op jsonb;
  replies jsonb := '[]';
begin
  perform 1 from ${s}.wallet
   where id = any(array(select distinct (m ->> 'wallet_id')::bigint
                          from jsonb_array_elements(operations) o, jsonb_array_elements(o -> 'movements') m))
   order by id for update;
  for op in select value from jsonb_array_elements(operations) loop
    replies := replies || jsonb_build_array(${s}.ledger_post(
      op -> 'movements', op ->> 'key', op -> 'actor', op -> 'events', nullif(op -> 'request', 'null'::jsonb)));
  end loop;
  return replies;
end $$`,
  ];
}
