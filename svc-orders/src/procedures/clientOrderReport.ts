import {
  describeIssues,
  fail,
  REPORT_FILTER_LABELS,
  REPORT_MESSAGES,
  REPORT_XLSX_MAX_ROWS,
  ReportFilters,
  ReportRowsParams,
  reportFileName,
  type Identity,
  type ReportRow,
} from '@caravan/contracts';
import {
  assertAccess,
  BusinessError,
  isTransientDbError,
  type Db,
  type IdentifiedRequest,
  type ServiceKit,
} from '@caravan/service-kit';
import express, { type Request, type Response } from 'express';
import { reportRows, reportSummary } from '../domain/report/query';
import { writeReportXlsx } from '../domain/report/xlsx';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Rows fetched at a time while the workbook is written. */
const DOWNLOAD_BATCH = 5000;

/** content-disposition with the Russian name (RFC 5987) and a plain fallback for old clients. */
const contentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Every row of the report, a batch at a time, by the same seek paging the page uses. */
async function* allRows(db: Db, identity: Identity, filters: ReportFilters): AsyncGenerator<ReportRow[]> {
  let cursor: string | null = null;
  do {
    const page = await reportRows(db, identity, filters, { per_page: DOWNLOAD_BATCH, cursor });
    yield page.items;
    cursor = page.next_cursor;
  } while (cursor);
}

/** The body's params flat, or as `{params: {...}}` (as the invoice download takes them). */
const paramsOf = (body: unknown): unknown =>
  body && typeof body === 'object' && 'params' in body && Object.keys(body).length === 1
    ? (body as { params: unknown }).params
    : (body ?? {});

/**
 * The client order report (spec §3; docs/adr/0024-reports.md): `client_order_report_rows`,
 * `client_order_report_summary` and POST /api/client_order_report_download, with the same filters and
 * the same reach — the orders the caller may read (admin all, a client their clients', an operator
 * their operators'), decided here from the signed identity whatever the filters say.
 */
export function registerClientOrderReport(kit: ServiceKit) {
  kit.registry
    .register({
      name: 'client_order_report_rows',
      params: ReportRowsParams,
      labels: REPORT_FILTER_LABELS,
      access: 'any',
      readOnly: true,
      handler: ({ db, identity }, { per_page, cursor, ...filters }) =>
        reportRows(db, identity, filters, { per_page, cursor }),
    })
    .register({
      name: 'client_order_report_summary',
      params: ReportFilters,
      labels: REPORT_FILTER_LABELS,
      access: 'any',
      readOnly: true,
      handler: ({ db, identity }, filters) => reportSummary(db, identity, filters),
    });

  kit.api.post(
    '/client_order_report_download',
    express.json({ limit: '16kb' }),
    async (req: Request, res: Response) => {
      const raw = paramsOf(req.body);
      const parsed = ReportFilters.safeParse(raw);
      if (!parsed.success) {
        res.json(fail(describeIssues(parsed.error.issues, raw, REPORT_FILTER_LABELS)));
        return;
      }
      const filters = parsed.data;
      const { identity } = req as IdentifiedRequest;
      try {
        assertAccess(identity, 'any');
        // one snapshot: the rows and the totals of the workbook agree whatever is written meanwhile
        await kit.db.transaction(
          async (trx) => {
            const summary = await reportSummary(trx, identity, filters);
            if (summary.total.order_count > REPORT_XLSX_MAX_ROWS)
              throw new BusinessError(REPORT_MESSAGES.tooManyRows(summary.total.order_count));
            res.status(200).set({
              'content-type': XLSX_TYPE,
              'content-disposition': contentDisposition(reportFileName(filters)),
              'cache-control': 'no-store',
            });
            await writeReportXlsx(res, summary, allRows(trx, identity, filters));
          },
          { isolationLevel: 'repeatable read', readOnly: true },
        );
      } catch (err) {
        if (res.headersSent) {
          // the workbook is half sent: cut the connection so the browser does not keep a broken file
          kit.log.error({ err, reqId: (req as IdentifiedRequest).id }, 'report download broke off');
          res.destroy();
        } else if (err instanceof BusinessError) res.json(fail(err.message));
        else if (isTransientDbError(err)) res.status(503).json(fail(REPORT_MESSAGES.unavailable));
        else {
          kit.log.error({ err, reqId: (req as IdentifiedRequest).id }, 'report download failed');
          res.status(500).json(fail(REPORT_MESSAGES.unavailable));
        }
      }
    },
  );
}
