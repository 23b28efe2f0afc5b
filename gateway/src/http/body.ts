import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { MESSAGES } from '@caravan/contracts';

/** A request the gateway refuses before it reaches anyone: an HTTP status and a message for the user. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Deeper JSON than any form of ours sends: refused before parsing, so no part recurses on it. */
export const MAX_JSON_DEPTH = 32;

/** The request body as sent, decompressed (gzip, deflate, br); anything else is refused in words. */
function decoded(req: IncomingMessage): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  switch (encoding) {
    case '':
    case 'identity':
      return req;
    case 'gzip':
    case 'x-gzip':
      return req.pipe(createGunzip());
    case 'deflate':
      return req.pipe(createInflate());
    case 'br':
      return req.pipe(createBrotliDecompress());
    default:
      throw new Refusal(415, MESSAGES.unsupportedEncoding);
  }
}

/** Reads the whole body, at most `limit` bytes after decompression (a small zip cannot grow into a large one). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit && !req.headers['content-encoding'])
    return Promise.reject(new Refusal(413, MESSAGES.bodyTooLarge));
  return new Promise((resolve, reject) => {
    let stream: Readable;
    try {
      stream = decoded(req);
    } catch (err) {
      req.resume();
      reject(err);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (err: Error) => {
      req.unpipe();
      req.resume(); // drain what is left, so the connection stays usable for the reply
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.destroy();
        fail(new Refusal(413, MESSAGES.bodyTooLarge));
      } else chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', () => fail(new Refusal(400, MESSAGES.unsupportedEncoding)));
    req.on('aborted', () => fail(new Refusal(400, MESSAGES.invalidParams)));
  });
}

/** JSON nesting depth of a body, counted over brackets outside strings (linear, no recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) max = Math.max(max, ++depth);
    else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/** A JSON body in UTF-8; any other media type or charset, bad JSON or too deep nesting is refused in words. */
export async function readJson(
  req: IncomingMessage,
  limit: number,
): Promise<{ raw: Buffer; value: unknown }> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const [media, ...attributes] = type.split(';').map((p) => p.trim());
  const charset = attributes.find((a) => a.startsWith('charset='))?.slice('charset='.length);
  if (media !== 'application/json' || (charset && !['utf-8', 'utf8', '"utf-8"'].includes(charset))) {
    req.resume();
    throw new Refusal(415, MESSAGES.unsupportedBody);
  }
  const raw = await readBody(req, limit);
  const text = raw.toString('utf8');
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new Refusal(400, MESSAGES.bodyTooDeep);
  try {
    return { raw, value: JSON.parse(text) };
  } catch {
    throw new Refusal(400, MESSAGES.invalidJson);
  }
}
