import { uploadedFileId, uploadedFilePath } from './entities/upload';

const id = '0b6c1b2e-1f2a-4c3d-8e9f-0a1b2c3d4e5f';

describe('the path of an uploaded file', () => {
  it('keeps a plain extension of the name, in lower case, and nothing else', () => {
    expect(uploadedFilePath(id, 'Накладная.PDF')).toBe(`/api/files/${id}.pdf`);
    expect(uploadedFilePath(id, 'без расширения')).toBe(`/api/files/${id}`);
    expect(uploadedFilePath(id, 'странное.тхт')).toBe(`/api/files/${id}`);
  });

  it('reads back the id of a path it made, and of nothing else', () => {
    expect(uploadedFileId(uploadedFilePath(id, 'фото.jpg'))).toBe(id);
    expect(uploadedFileId(uploadedFilePath(id, 'без расширения'))).toBe(id);
    for (const other of [
      'javascript:alert(1)',
      'https://evil.example/phish.exe',
      `https://evil.example/api/files/${id}.pdf`,
      `/api/files/${id}.pdf.exe`,
      `/api/files/${id}.PDF`,
      '/api/files/not-an-id.pdf',
    ])
      expect(uploadedFileId(other)).toBeNull();
  });
});
