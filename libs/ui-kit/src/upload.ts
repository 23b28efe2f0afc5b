import {
  fail,
  MESSAGES,
  UPLOAD_MESSAGES,
  uploadRefusal,
  type Reply,
  type UploadedFile,
} from '@caravan/contracts';
import { authHeaders, signalUnauthorized } from './auth';

/** POST /api/upload_image | upload_file with the files; the spec's messages for a refused one. */
export async function uploadFiles(
  kind: 'image' | 'file',
  files: File[],
  extensions?: readonly string[],
): Promise<Reply<UploadedFile[]>> {
  for (const file of files) {
    const refusal = uploadRefusal(file, extensions ? { extensions } : {});
    if (refusal) return fail(refusal);
  }
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  if (extensions) form.append('extensions', extensions.join(','));
  try {
    const res = await fetch(`/api/upload_${kind}`, { method: 'POST', headers: authHeaders(), body: form });
    if (res.status === 401) signalUnauthorized();
    const reply = (await res.json()) as Reply<UploadedFile[]>;
    return reply.ok ? reply : fail(reply.message || UPLOAD_MESSAGES.uploadFailed);
  } catch {
    return fail(MESSAGES.serviceUnavailable);
  }
}

/** Does the link load as an image? (a link that does not is removed, spec §5) */
export const loadsAsImage = (url: string) =>
  new Promise<boolean>((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img.naturalWidth > 0);
    img.onerror = () => resolve(false);
    img.src = url;
  });

/** POST JSON to an /api path (lookups, the public auth paths) with the session's token when there is one; a network failure becomes a reply like any other. */
export async function postApi<T>(path: string, body: unknown): Promise<Reply<T>> {
  try {
    const res = await fetch(`/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify(body),
    });
    if (res.status === 401) signalUnauthorized();
    return (await res.json()) as Reply<T>;
  } catch {
    return fail(MESSAGES.serviceUnavailable);
  }
}

/**
 * A multipart POST whose progress the UI shows (a large Excel file): `onProgress` gets the share sent,
 * 0..1; once all is sent the server still reads the file, which the caller shows as indeterminate.
 */
export function postFormWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (sent: number) => void,
): Promise<Reply<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${path}`);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      if (xhr.status === 401) signalUnauthorized();
      try {
        resolve(JSON.parse(xhr.responseText) as Reply<T>);
      } catch {
        resolve(fail(UPLOAD_MESSAGES.uploadFailed));
      }
    };
    xhr.onerror = () => resolve(fail(MESSAGES.serviceUnavailable));
    xhr.send(form);
  });
}
