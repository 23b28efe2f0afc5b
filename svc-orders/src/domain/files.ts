import { IMAGE_EXTENSIONS, UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadRefusal } from '@caravan/contracts';

export type ReceivedFile = { name: string; mime: string; data: Buffer; truncated: boolean };

const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  [
    'image/png',
    (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  ],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'image/webp',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
];

/** The image type by the file's own bytes (a renamed text file is not an image), or null. */
export const sniffImage = (data: Buffer) => SIGNATURES.find(([, test]) => test(data))?.[0] ?? null;

/**
 * Why a received file is refused (spec §5 messages), or null. Images must be jpeg, png, gif or webp by
 * name and by content; other files may be limited to the extensions the form asked for.
 */
export function refusal(file: ReceivedFile, kind: 'image' | 'file', extensions?: readonly string[]) {
  if (file.truncated) return UPLOAD_MESSAGES.tooBig(UPLOAD_MAX_BYTES);
  if (!file.data.length) return UPLOAD_MESSAGES.rejected;
  const allowed = kind === 'image' ? IMAGE_EXTENSIONS : extensions;
  const byName = uploadRefusal(
    { name: file.name, size: file.data.length },
    allowed ? { extensions: allowed } : {},
  );
  if (byName) return byName;
  if (kind === 'image' && !sniffImage(file.data)) return UPLOAD_MESSAGES.rejected;
  return null;
}

/** Types a browser may show inline from our origin; anything else downloads (no stored HTML or scripts). */
const INLINE = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
]);
export const servedType = (mime: string) => (INLINE.has(mime) ? mime : 'application/octet-stream');
