import { Transform } from 'node:stream';

/** More cells in one sheet than one import may unpack (docs/adr/0016-import-as-suppliers-write.md). */
export class CellLimitError extends Error {}

const TAG = /<(row|c)(?=[\s/>])([^>]*)>/g;
const ROW_REF = /\sr\s*=\s*["'](\d+)["']/;
const CELL_REF = /\sr\s*=\s*["']([A-Za-z]{1,3})\d*["']/;

/** 'A' → 1, 'AB' → 28. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

/** 1 → 'A', 28 → 'AB'. */
export function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/**
 * A worksheet's XML on its way to exceljs: rows and cells without the optional `r` attribute get the
 * one LibreOffice and openpyxl would infer (the next row; the next column in the row), which exceljs
 * needs; and the sheet's cells are counted, failing with CellLimitError past `maxCells` before the
 * parser makes objects of them. A tag split between two chunks is held back until it is whole.
 */
export function sheetXml(maxCells: number): Transform {
  let pending = '';
  let row = 0;
  let column = 0;
  let cells = 0;
  const rewrite = (text: string) =>
    text.replace(TAG, (tag: string, name: string, attributes: string) => {
      if (name === 'row') {
        const r = ROW_REF.exec(attributes);
        row = r ? Number(r[1]) : row + 1;
        column = 0;
        return r ? tag : `<row r="${row}"${attributes}>`;
      }
      if (++cells > maxCells) throw new CellLimitError(`more than ${maxCells} cells`);
      const r = CELL_REF.exec(attributes);
      column = r ? columnNumber(r[1]!) : column + 1;
      return r && /\d/.test(r[0])
        ? tag
        : `<c r="${columnLetters(column)}${row}"${attributes.replace(CELL_REF, '')}>`;
    });
  const out = new Transform({
    decodeStrings: false,
    transform(chunk: string | Buffer, _encoding, done) {
      pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const open = pending.lastIndexOf('<');
      const cut = open >= 0 && pending.indexOf('>', open) < 0 ? open : pending.length;
      try {
        const ready = rewrite(pending.slice(0, cut));
        pending = pending.slice(cut);
        done(null, ready);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        done(null, rewrite(pending));
      } catch (err) {
        done(err as Error);
      }
    },
  });
  out.setEncoding('utf8');
  return out;
}
