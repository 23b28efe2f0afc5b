import { qrPngBase64 } from './qr';

describe('qrPngBase64', () => {
  it('draws the link as a PNG, base64 without a data: prefix', async () => {
    const base64 = await qrPngBase64(
      'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001',
    );
    expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(base64, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(320); // IHDR width
    expect(png.readUInt32BE(20)).toBe(320);
  });
});
