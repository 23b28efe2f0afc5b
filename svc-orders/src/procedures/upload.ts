import { randomUUID } from 'node:crypto';
import {
  fail,
  ok,
  UPLOAD_MAX_BYTES,
  UPLOAD_MESSAGES,
  uploadedFilePath,
  type UploadedFile,
} from '@caravan/contracts';
import type { IdentifiedRequest, ServiceKit } from '@caravan/service-kit';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { refusal, servedType, sniffImage, type ReceivedFile } from '../domain/files';

const MAX_FILES = 20;
/** All files of one upload together: what one request may make the service hold in memory. */
const MAX_TOTAL_BYTES = 5 * UPLOAD_MAX_BYTES;

/** Reads a multipart form: its files (each cut at the size limit) and text fields. */
function receive(req: Request): Promise<{ files: ReceivedFile[]; fields: Record<string, string> }> {
  return new Promise<{ files: ReceivedFile[]; fields: Record<string, string> }>((resolve, reject) => {
    const files: ReceivedFile[] = [];
    const fields: Record<string, string> = {};
    let total = 0;
    const form = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { fileSize: UPLOAD_MAX_BYTES, files: MAX_FILES, fields: 10, fieldSize: 1000 },
    });
    form.on('file', (_field, stream, info) => {
      const chunks: Buffer[] = [];
      const file: ReceivedFile = {
        name: info.filename ?? 'file',
        mime: info.mimeType,
        data: Buffer.alloc(0),
        truncated: false,
      };
      files.push(file);
      stream.on('data', (c: Buffer) => {
        total += c.length;
        if (total > MAX_TOTAL_BYTES) file.truncated = true;
        else chunks.push(c);
      });
      stream.on('limit', () => (file.truncated = true));
      stream.on('close', () => (file.data = Buffer.concat(chunks)));
      // 'Unexpected end of form' reaches the file's stream too: unheard, it would crash the service
      stream.on('error', reject);
    });
    form.on('field', (name, value) => (fields[name] = value));
    form.on('close', () => resolve({ files, fields }));
    form.on('error', reject);
    req.on('error', reject);
    req.pipe(form);
  }).catch((err: unknown) => {
    abandon(req);
    throw err;
  });
}

/** Why a form could not be read: not a multipart form at all (no file), or one cut short. */
export const unreadableForm = (req: Request) =>
  /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')
    ? UPLOAD_MESSAGES.truncated
    : UPLOAD_MESSAGES.noFile;

/** Stops parsing a form that failed and lets the rest of its body drain, so the answer can still go out. */
export function abandon(req: Request) {
  req.unpipe();
  req.resume();
}

/**
 * POST /api/upload_image and /api/upload_file (multipart, field `file`, several allowed; optional
 * `extensions` field "pdf,docx"): stores all the files or none, answers their links. GET
 * /api/files/{name} serves them (public: the names are random UUIDs, docs/adr/0003).
 */
export function registerUploads(kit: ServiceKit) {
  const upload = (kind: 'image' | 'file') => async (req: Request, res: Response) => {
    let received: Awaited<ReturnType<typeof receive>>;
    try {
      received = await receive(req);
    } catch {
      res.status(400).json(fail(unreadableForm(req)));
      return;
    }
    const { files, fields } = received;
    if (!files.length) {
      res.json(fail(UPLOAD_MESSAGES.noFile));
      return;
    }
    const extensions = fields.extensions
      ?.split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean);
    const refused = files.map((f) => refusal(f, kind, extensions)).find(Boolean);
    if (refused) {
      res.json(fail(refused));
      return;
    }
    const userId = (req as IdentifiedRequest).identity.user_id;
    const stored = files.map((f) => {
      const id = randomUUID();
      const mime = kind === 'image' ? sniffImage(f.data)! : f.mime || 'application/octet-stream';
      return { id, name: f.name.slice(0, 300), mime, size: f.data.length, data: f.data, user_id: userId };
    });
    await kit.db('file').insert(stored);
    const result: UploadedFile[] = stored.map((s) => ({
      file: uploadedFilePath(s.id, s.name),
      name: s.name,
      size: s.size,
      mime: s.mime,
    }));
    res.json(ok(result));
  };
  kit.api.post('/upload_image', upload('image'));
  kit.api.post('/upload_file', upload('file'));

  kit.publicApi.get('/files/:name', async (req, res) => {
    const id = /^([0-9a-f-]{36})(\.[a-z0-9]+)?$/.exec(req.params.name)?.[1];
    const file = id ? await kit.db('file').where({ id }).first('name', 'mime', 'data') : undefined;
    if (!file) {
      res.status(404).json(fail('файл не найден'));
      return;
    }
    const type = servedType(file.mime);
    res.setHeader('content-type', type);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    res.setHeader(
      'content-disposition',
      `${type === 'application/octet-stream' ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    );
    res.send(file.data);
  });
}
