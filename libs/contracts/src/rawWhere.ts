import type { WhereCondition } from './list';

/**
 * The admin's raw where box (spec §6), parsed into the structured filter the services apply: never SQL
 * text. Grammar: condition (AND condition)*, where a condition is
 *   field (= | != | <> | > | < | >= | <=) value  |  field LIKE string  |  field IN (value, …)
 *   |  field IS [NOT] NULL
 * and a value is a number, a quoted string ('…' or "…", a doubled quote escapes itself), true, false
 * or null. Fields must be in the entity's whitelist. OR, functions, sub-queries and comments are refused.
 */
export class RawWhereError extends Error {}

type Token = {
  kind: 'word' | 'number' | 'string' | 'op' | 'punct';
  text: string;
  value?: string | number;
  at: number;
};

const OPS = ['>=', '<=', '!=', '<>', '=', '>', '<'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i + 1;
    if (c === "'" || c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new RawWhereError(`незакрытая кавычка (позиция ${at})`);
        if (text[i] === c && text[i + 1] === c) {
          value += c;
          i += 2;
        } else if (text[i] === c) {
          i++;
          break;
        } else value += text[i++];
      }
      tokens.push({ kind: 'string', text: value, value, at });
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], value: Number(number[0]), at });
      i += number[0].length;
      continue;
    }
    const word = /^[a-z_][a-z0-9_]*/i.exec(text.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0], at });
      i += word[0].length;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op) {
      tokens.push({ kind: 'op', text: op, at });
      i += op.length;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: 'punct', text: c, at });
      i++;
      continue;
    }
    throw new RawWhereError(`недопустимый символ '${c}' (позиция ${at})`);
  }
  return tokens;
}

export function parseRawWhere(text: string, fields: readonly string[]): WhereCondition[] {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toLowerCase() === w;
  const fail = (expected: string): never => {
    const t = peek();
    throw new RawWhereError(
      t
        ? `ожидалось ${expected}, а не '${t.text}' (позиция ${t.at})`
        : `ожидалось ${expected} в конце условия`,
    );
  };
  const value = (): string | number | boolean | null => {
    const t = peek();
    if (t?.kind === 'number' || t?.kind === 'string') {
      pos++;
      return t.value!;
    }
    if (isWord(t, 'true') || isWord(t, 'false') || isWord(t, 'null')) {
      pos++;
      return t!.text.toLowerCase() === 'null' ? null : t!.text.toLowerCase() === 'true';
    }
    return fail('значение (число, строка в кавычках, true, false или null)');
  };

  const conditions: WhereCondition[] = [];
  if (!tokens.length) throw new RawWhereError('пустое условие');
  for (;;) {
    const fieldToken = peek();
    if (fieldToken?.kind !== 'word' || ['and', 'or', 'not'].includes(fieldToken.text.toLowerCase()))
      fail('имя поля');
    const field = fieldToken!.text.toLowerCase();
    if (!fields.includes(field)) throw new RawWhereError(`поле '${field}' недоступно для фильтра`);
    pos++;
    const t = peek();
    if (t?.kind === 'op') {
      pos++;
      const v = value();
      const op = t.text === '<>' ? '!=' : (t.text as WhereCondition['op']);
      if (v === null && (op === '=' || op === '!='))
        conditions.push({ field, op: op === '=' ? 'is_null' : 'not_null' });
      else conditions.push({ field, op, value: v as string | number | boolean });
    } else if (isWord(t, 'like')) {
      pos++;
      const v = peek();
      if (v?.kind !== 'string') fail('строка в кавычках');
      pos++;
      conditions.push({ field, op: 'like', value: v!.value as string });
    } else if (isWord(t, 'in')) {
      pos++;
      if (peek()?.text !== '(') fail("'('");
      pos++;
      const list: (string | number)[] = [];
      for (;;) {
        const v = value();
        if (typeof v !== 'string' && typeof v !== 'number')
          throw new RawWhereError('в списке IN допустимы только числа и строки');
        list.push(v);
        if (peek()?.text === ',') pos++;
        else if (peek()?.text === ')') {
          pos++;
          break;
        } else fail("',' или ')'");
      }
      conditions.push({ field, op: 'in', value: list });
    } else if (isWord(t, 'is')) {
      pos++;
      const not = isWord(peek(), 'not');
      if (not) pos++;
      if (!isWord(peek(), 'null')) fail('null');
      pos++;
      conditions.push({ field, op: not ? 'not_null' : 'is_null' });
    } else fail('оператор сравнения (=, !=, >, <, >=, <=, like, in, is null)');

    if (pos === tokens.length) return conditions;
    if (isWord(peek(), 'or'))
      throw new RawWhereError('OR не поддерживается: условия соединяются только через AND');
    if (!isWord(peek(), 'and')) fail('AND');
    pos++;
  }
}
