import QRCode from 'qrcode';

/**
 * The QR of an SBP link as PNG, base64 without the `data:` prefix (what modul_sbp_create answers for
 * type img). The bank sends only the link (vendor-apis §2a); the image is drawn here. Error correction
 * M, a 4-module quiet zone as scanners expect, 320 px wide: sharp on a phone and on a monitor.
 */
export async function qrPngBase64(link: string): Promise<string> {
  const png = await QRCode.toBuffer(link, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 320 });
  return png.toString('base64');
}
