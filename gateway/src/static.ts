import { promises as fs } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

/**
 * Serving a web build (the shell here, the remotes from deploy/local/start.mjs): the `.br` / `.gz`
 * file the build wrote next to each asset when the browser accepts it, the content type of the
 * original, `Vary: Accept-Encoding`, and a year of cache for content-hashed names.
 */

/** `[name].[contenthash:8].ext`: the name changes with the content, so it is never revalidated. */
const HASHED_NAME = /\.[0-9a-f]{8}\.[a-z0-9]+$/i;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Best first; on an equal q-value the smaller one. */
const VARIANTS = [
  { encoding: 'br', ext: '.br' },
  { encoding: 'gzip', ext: '.gz' },
] as const;

export type BuiltFilesOptions = {
  /** Any path without an extension gets index.html (a client-side route). */
  spa?: boolean;
};

/** The q-value Accept-Encoding gives an encoding (`*` stands for the ones not named; absent: 0). */
export function encodingQuality(acceptEncoding: string, encoding: string): number {
  let named: number | null = null;
  let any = 0;
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    const value = Number.isFinite(quality) ? quality : 0;
    if (name === encoding) named = value;
    else if (name === '*') any = value;
  }
  return named ?? any;
}

async function isFile(file: string) {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The file a URL path names inside `root`, or null for anything outside it or hidden. */
function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = path.posix.normalize(decoded).replace(/^\/+/, '');
  if (relative.split('/').some((segment) => segment === '..' || segment.startsWith('.'))) return null;
  const file = path.join(root, relative);
  return file.startsWith(root + path.sep) ? file : null;
}

/** The precompressed variant to send, if the build wrote one the browser accepts. */
async function pickVariant(file: string, acceptEncoding: string) {
  const accepted = VARIANTS.map((v) => ({ ...v, q: encodingQuality(acceptEncoding, v.encoding) }))
    .filter((v) => v.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const v of accepted) if (await isFile(file + v.ext)) return v;
  return null;
}

async function sendBuiltFile(req: Request, res: Response, next: NextFunction, file: string) {
  const variant = await pickVariant(file, req.get('accept-encoding') ?? '');
  res.type(path.extname(file));
  res.setHeader('Cache-Control', HASHED_NAME.test(file) ? IMMUTABLE : 'no-cache');
  res.vary('Accept-Encoding');
  if (variant) res.setHeader('Content-Encoding', variant.encoding);
  res.sendFile(variant ? file + variant.ext : file, { cacheControl: false, dotfiles: 'allow' }, (err) => {
    if (!err || res.headersSent) return; // sent, or the browser went away mid-file
    res.removeHeader('Content-Encoding');
    // gone since it was looked up (a build running): a 404 like any missing file
    next((err as { status?: number }).status === 404 ? undefined : err);
  });
}

/** Serves the files of a built web app from `dist`. */
export function serveBuiltFiles(dist: string, options: BuiltFilesOptions = {}): Router {
  const root = path.resolve(dist);
  const router = express.Router();
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    void (async () => {
      const file = fileInside(root, req.path);
      if (file && (await isFile(file))) return sendBuiltFile(req, res, next, file);
      // a missing asset is a 404, not the page
      if (options.spa && !path.extname(req.path))
        return sendBuiltFile(req, res, next, path.join(root, 'index.html'));
      next();
    })().catch(next);
  });
  return router;
}
