import { specMessage } from '../validation';

/** Spec §5/§9: upload limits and the messages that refuse a file. */
export const UPLOAD_MAX_BYTES = 10_000_000;
export const EXCEL_MAX_BYTES = 200_000_000;
export const EXCEL_EXTENSIONS = ['xlsx', 'xls'] as const;
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

const formatSize = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toLocaleString('ru-RU')} МБ` : `${bytes} байт`;

export const UPLOAD_MESSAGES = {
  tooBig: (maxBytes: number) => specMessage(`допустимы только файлы не больше: ${formatSize(maxBytes)}`),
  extension: (list: readonly string[]) =>
    specMessage(`допустимы только файлы с раширением: ${list.join(', ')}`),
  rejected: specMessage('данный файл не соответствует ограничениям'),
  mustHaveExtension: (list: readonly string[]) => `файл должен иметь расширение ${list.join(', ')}`,
  notAnImage: (url: string) => `ошибка: url "${url}" не является ссылкой на фото`,
  clipboard: 'Не удалось загрузить изображение из буфера обмена',
  noFile: 'файл не передан',
  uploadFailed: 'ошибка загрузки',
  /** The form ended before its closing boundary: the connection was cut or the client gave up. */
  truncated: 'файл передан не полностью, загрузите его ещё раз',
} as const;

export const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/**
 * Where svc-orders serves an uploaded file (docs/adr/0003): `/api/files/<its id>`, with its name's extension when
 * that is a plain one. The upload builds the path; a chat message's attachment is checked against it.
 */
const UPLOADED_FILES_PATH = '/api/files/';
const STORED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STORED_EXTENSION = /^[a-z0-9]{1,10}$/;

export function uploadedFilePath(id: string, name: string): string {
  const ext = extensionOf(name);
  return STORED_EXTENSION.test(ext) ? `${UPLOADED_FILES_PATH}${id}.${ext}` : `${UPLOADED_FILES_PATH}${id}`;
}

/** The stored file's id of an attachment's `file`, or null when it is not a file uploaded here (any other link). */
export function uploadedFileId(file: string): string | null {
  if (!file.startsWith(UPLOADED_FILES_PATH)) return null;
  const [id = '', ext, ...more] = file.slice(UPLOADED_FILES_PATH.length).split('.');
  const plain = ext === undefined || STORED_EXTENSION.test(ext);
  return STORED_ID.test(id) && plain && !more.length ? id : null;
}

/** Why a file cannot be uploaded (the spec's message), or null when it can. */
export function uploadRefusal(
  file: { name: string; size: number },
  o: { maxBytes?: number; extensions?: readonly string[] } = {},
): string | null {
  const maxBytes = o.maxBytes ?? UPLOAD_MAX_BYTES;
  if (file.size > maxBytes) return UPLOAD_MESSAGES.tooBig(maxBytes);
  if (o.extensions && !o.extensions.includes(extensionOf(file.name)))
    return UPLOAD_MESSAGES.extension(o.extensions);
  return null;
}

/** What an upload answers: one entry per stored file, ready to go into an attachment list. */
export type UploadedFile = { file: string; name: string; size: number; mime: string };
