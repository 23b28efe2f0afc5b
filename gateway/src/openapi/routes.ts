import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { buildOpenApiDocument } from './document';
import { OPENAPI_FILE } from './write';

/** The files of Swagger UI the page loads, served by the gateway itself (no CDN). */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

const PAGE = `<!doctype html>
<html lang="ru">
  <head>
    <meta charset="utf-8" />
    <title>Caravan API</title>
    <link rel="icon" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;
// the session token is the apiKey scheme: "Authorize" with the Auth-token of a signed-in user
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'none',
  filter: true,
  defaultModelsExpandDepth: 0,
});
`;

/**
 * The document as JSON text: the build's file (gateway/dist/openapi.json) when there is one, else
 * generated once (a run from the sources); read when first asked, not at start.
 */
function documentText(file: string): () => string {
  let text: string | null = null;
  return () =>
    (text ??= existsSync(file)
      ? JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))
      : JSON.stringify(buildOpenApiDocument()));
}

/** GET /api/openapi.json and the reference page GET /api/docs (docs/adr/0026-openapi.md). */
export function openApiRoutes(file = OPENAPI_FILE): Router {
  const text = documentText(file);
  const router = express.Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.type('application/json').set('cache-control', 'no-cache').send(text());
  });
  router.get('/api/docs', (_req, res) => {
    res.type('html').set('cache-control', 'no-cache').send(PAGE);
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.type('application/javascript').set('cache-control', 'no-cache').send(INIT);
  });
  router.get('/api/docs/:file', (req, res, next) => {
    if (!SWAGGER_UI_FILES.has(req.params.file)) return next();
    res.sendFile(path.join(SWAGGER_UI_DIR, req.params.file), { maxAge: '1d' });
  });
  return router;
}
