import { MESSAGES, type ReportFilters, type ReportRowsResult, type ReportSummary } from '@caravan/contracts';
import { authHeaders, baseApi, signalUnauthorized } from '@caravan/ui-kit';

const ORDER_TAG = { type: 'Entity' as const, id: 'client_order' };

/** The report's calls (svc-orders, docs/adr/0024-reports.md): refreshed when orders change. */
export const reportApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    reportSummary: build.query<ReportSummary, ReportFilters>({
      query: (params) => ({ method: 'client_order_report_summary', params }),
      providesTags: [ORDER_TAG],
    }),
    reportRows: build.query<ReportRowsResult, ReportFilters & { cursor?: string | null }>({
      query: (params) => ({ method: 'client_order_report_rows', params }),
      providesTags: [ORDER_TAG],
    }),
  }),
});
export const { useReportSummaryQuery, useReportRowsQuery } = reportApi;

/** The file name the server gave (content-disposition, RFC 5987 first), else the fallback. */
export function fileNameOf(header: string | null, fallback: string): string {
  const star = header?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (star) return decodeURIComponent(star);
  return header?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * POST /api/client_order_report_download with the page's filters: saves the workbook and returns its
 * name, or throws the server's refusal in words.
 */
export async function downloadReport(filters: ReportFilters): Promise<string> {
  let res: Response;
  try {
    res = await fetch('/api/client_order_report_download', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify(filters),
    });
  } catch {
    throw new Error(MESSAGES.serviceUnavailable);
  }
  if (res.status === 401) signalUnauthorized();
  if ((res.headers.get('content-type') ?? '').includes('application/json')) {
    const reply = (await res.json()) as { message?: string };
    throw new Error(reply.message ?? MESSAGES.somethingWentWrong);
  }
  if (!res.ok) throw new Error(MESSAGES.somethingWentWrong);
  const name = fileNameOf(res.headers.get('content-disposition'), 'report.xlsx');
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
