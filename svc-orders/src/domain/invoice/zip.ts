import { open, type FileHandle } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/**
 * A zip archive read through its central directory: each part is streamed on its own, from its own
 * byte range, in whatever order the reader needs (an .xlsx keeps the workbook and the shared strings
 * after the sheets as often as before them). Only stored and deflated parts; no encryption.
 */
export class ZipError extends Error {}
/** A part that declares more bytes than the reader allows for it: refused before any inflating. */
export class ZipLimitError extends ZipError {}

type Entry = { method: number; compressedSize: number; size: number; offset: number; encrypted: boolean };

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_DIRECTORY_BYTES = 32 * 1024 * 1024;
const U32 = 0xffffffff;

export class ZipFile {
  private constructor(
    private readonly file: FileHandle,
    private readonly size: number,
    private readonly entries: Map<string, Entry>,
  ) {}

  static async open(path: string): Promise<ZipFile> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      return new ZipFile(file, size, await readDirectory(file, size));
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  has(name: string) {
    return this.entries.has(name);
  }

  names() {
    return [...this.entries.keys()];
  }

  /**
   * The part's text, decoded as UTF-8 across chunk boundaries (strings, never Buffers: a character
   * split between two chunks stays whole). Refuses (ZipLimitError) a part declaring more than
   * `maxBytes`, and fails when it inflates beyond what the directory says (a zip bomb stops here,
   * not in memory).
   */
  async text(name: string, maxBytes: number): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new ZipError(`no part ${name}`);
    if (entry.encrypted) throw new ZipError('encrypted part');
    if (entry.method !== 0 && entry.method !== 8) throw new ZipError(`compression ${entry.method}`);
    const local = await readAt(this.file, entry.offset, 30);
    if (local.readUInt32LE(0) !== LOCAL) throw new ZipError('bad local header');
    const start = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (start + entry.compressedSize > this.size) throw new ZipError('part beyond the end');
    if (entry.size > maxBytes) throw new ZipLimitError(`part ${name} declares ${entry.size} bytes`);
    const limit = entry.size;
    const out = byteLimit(limit);
    out.setEncoding('utf8');
    if (entry.compressedSize === 0) {
      out.end();
      return out;
    }
    const raw = this.file.createReadStream({
      start,
      end: start + entry.compressedSize - 1,
      autoClose: false,
    });
    // the pipeline destroys every stage when the reader stops early; the file handle stays open
    const noop = () => undefined;
    if (entry.method === 8) pipeline(raw, createInflateRaw(), out, noop);
    else pipeline(raw, out, noop);
    return out;
  }

  close() {
    return this.file.close();
  }
}

function byteLimit(limit: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(new ZipError('part larger than declared'));
      else done(null, chunk);
    },
  });
}

async function readAt(file: FileHandle, position: number, length: number) {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipError('unexpected end of file');
  return buffer;
}

async function readDirectory(file: FileHandle, size: number): Promise<Map<string, Entry>> {
  if (size < 22) throw new ZipError('too short');
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = await readAt(file, size - tailLength, tailLength);
  const signature = Buffer.alloc(4);
  signature.writeUInt32LE(EOCD);
  const at = tail.lastIndexOf(signature);
  if (at < 0 || at + 22 > tail.length) throw new ZipError('no end of central directory');
  let count = tail.readUInt16LE(at + 10);
  let length = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || length === U32 || offset === U32) {
    ({ count, length, offset } = await readZip64End(file, tail, at));
  }
  if (length > MAX_DIRECTORY_BYTES || offset + length > size) throw new ZipError('bad central directory');
  const directory = await readAt(file, offset, length);
  const entries = new Map<string, Entry>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL) throw new ZipError('bad entry');
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const entry: Entry = {
      method: directory.readUInt16LE(p + 10),
      compressedSize: directory.readUInt32LE(p + 20),
      size: directory.readUInt32LE(p + 24),
      offset: directory.readUInt32LE(p + 42),
      encrypted: (directory.readUInt16LE(p + 8) & 1) === 1,
    };
    const name = directory.toString('utf8', p + 46, p + 46 + nameLength);
    readZip64Extra(directory.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), entry);
    entries.set(name, entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function readZip64End(file: FileHandle, tail: Buffer, at: number) {
  const locator = at - 20;
  if (locator < 0 || tail.readUInt32LE(locator) !== EOCD64_LOCATOR) throw new ZipError('no zip64 locator');
  const end = await readAt(file, Number(tail.readBigUInt64LE(locator + 8)), 56);
  if (end.readUInt32LE(0) !== EOCD64) throw new ZipError('bad zip64 end');
  return {
    count: Number(end.readBigUInt64LE(32)),
    length: Number(end.readBigUInt64LE(40)),
    offset: Number(end.readBigUInt64LE(48)),
  };
}

/** Sizes and offsets too large for 32 bits move into the zip64 extra field, in this order. */
function readZip64Extra(extra: Buffer, entry: Entry) {
  for (let p = 0; p + 4 <= extra.length;) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    if (id === 0x0001) {
      let q = p + 4;
      const next = () => {
        const value = q + 8 <= p + 4 + length ? Number(extra.readBigUInt64LE(q)) : null;
        q += 8;
        return value;
      };
      if (entry.size === U32) entry.size = next() ?? entry.size;
      if (entry.compressedSize === U32) entry.compressedSize = next() ?? entry.compressedSize;
      if (entry.offset === U32) entry.offset = next() ?? entry.offset;
      return;
    }
    p += 4 + length;
  }
}
