import {
  describeIssues,
  fail,
  INVOICE_DOWNLOAD_LABELS,
  INVOICE_MESSAGES,
  InvoiceDownloadParams,
  type InvoiceFormat,
} from '@caravan/contracts';
import { BusinessError, type IdentifiedRequest, type ServiceKit } from '@caravan/service-kit';
import express, { type Request, type Response } from 'express';
import { gatherInvoice } from '../domain/invoice/gather';
import { renderInvoiceHtml } from '../domain/invoice/html';
import { buildInvoice, contentDisposition, invoiceFileName, type Invoice } from '../domain/invoice/model';
import { closeInvoiceBrowser, htmlToPdf } from '../domain/invoice/pdf';
import { renderInvoiceXlsx } from '../domain/invoice/xlsx';

const CONTENT_TYPES: Record<InvoiceFormat, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const render = (invoice: Invoice, format: InvoiceFormat) =>
  format === 'pdf' ? htmlToPdf(renderInvoiceHtml(invoice)) : renderInvoiceXlsx(invoice);

/**
 * POST /api/client_order_invoice_download (spec §7; docs/adr/0012): a JSON body (the params flat, or
 * as `{params: {...}}`), the file in reply — PDF (Chromium) or XLSX (exceljs) — named in
 * content-disposition. Refusals answer HTTP 200 `{ok: false, message}` like the other HTTP calls
 * (the UI shows the message); a failure of ours answers 500 with a message.
 */
export function registerInvoiceDownload(kit: ServiceKit) {
  // the browser (launched at the first PDF) closes with the service
  kit.onStop(closeInvoiceBrowser);

  kit.api.post(
    '/client_order_invoice_download',
    express.json({ limit: '64kb' }),
    async (req: Request, res: Response) => {
      const body: unknown = req.body ?? {};
      const raw =
        body && typeof body === 'object' && 'params' in body && Object.keys(body).length === 1
          ? (body as { params: unknown }).params
          : body;
      const parsed = InvoiceDownloadParams.safeParse(raw);
      if (!parsed.success) {
        res.json(fail(describeIssues(parsed.error.issues, raw, { labels: INVOICE_DOWNLOAD_LABELS })));
        return;
      }
      const params = parsed.data;
      try {
        const sources = await gatherInvoice(kit.db, (req as IdentifiedRequest).identity, params);
        const invoice = buildInvoice(sources);
        if (!invoice.lines.length) throw new BusinessError(INVOICE_MESSAGES.nothingToPay);
        const file = await render(invoice, params.format_value);
        res
          .status(200)
          .set({
            'content-type': CONTENT_TYPES[params.format_value],
            'content-disposition': contentDisposition(invoiceFileName(invoice, params.format_value)),
            'content-length': String(file.length),
            'cache-control': 'no-store',
          })
          .end(file);
      } catch (err) {
        if (err instanceof BusinessError) {
          res.json(fail(err.message));
          return;
        }
        kit.log.error({ err, reqId: (req as IdentifiedRequest).id }, 'invoice failed');
        res.status(500).json(fail(INVOICE_MESSAGES.unavailable));
      }
    },
  );
}
