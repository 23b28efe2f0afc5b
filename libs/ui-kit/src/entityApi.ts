import type { HistoryEntry, ListParams, ListResult } from '@caravan/contracts';
import { baseApi } from './api';

export type EntityRow = { id: number; deleted: boolean; created_at: string } & Record<string, unknown>;
export type EntityListArgs = Partial<ListParams> & Record<string, unknown>;
type Builder = Parameters<Parameters<typeof baseApi.injectEndpoints>[0]['endpoints']>[0];
const tag = (entity: string) => [{ type: 'Entity' as const, id: entity }];

/**
 * The list and update endpoint definitions of one entity, for screens with their own endpoints:
 *   baseApi.injectEndpoints({ endpoints: (b) => { const e = entityEndpoints<Wallet>(b, 'wallet');
 *     return { walletList: e.list, walletUpdate: e.update }; } })
 * Lists are tagged by entity, so a save refreshes every open list of it.
 */
export function entityEndpoints<Row extends EntityRow>(build: Builder, entity: string) {
  return {
    list: build.query<ListResult<Row>, EntityListArgs>({
      query: (params) => ({ method: `${entity}_list`, params }),
      providesTags: tag(entity),
    }),
    update: build.mutation<Row, Record<string, unknown> & { id: number }>({
      query: (params) => ({ method: `${entity}_update`, params }),
      invalidatesTags: tag(entity),
    }),
  };
}

/**
 * The generic document endpoints every directory screen uses (list, item, save, history), keyed by
 * entity name: a save refreshes every open list, item and history of that entity.
 */
export const documentApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    documentList: build.query<ListResult<EntityRow>, { entity: string; params: EntityListArgs }>({
      query: ({ entity, params }) => ({ method: `${entity}_list`, params }),
      providesTags: (_r, _e, { entity }) => tag(entity),
    }),
    documentGet: build.query<EntityRow, { entity: string; id: number }>({
      query: ({ entity, id }) => ({ method: `${entity}_get_by_id`, params: { id } }),
      providesTags: (_r, _e, { entity }) => tag(entity),
    }),
    documentSave: build.mutation<
      EntityRow,
      { entity: string; values: Record<string, unknown> & { id: number } }
    >({
      query: ({ entity, values }) => ({ method: `${entity}_update`, params: values }),
      invalidatesTags: (_r, _e, { entity }) => tag(entity),
    }),
    documentHistory: build.query<HistoryEntry[], { entity: string; id: number }>({
      query: ({ entity, id }) => ({ method: `${entity}_history`, params: { id } }),
      providesTags: (_r, _e, { entity }) => tag(entity),
    }),
  }),
});
export const {
  useDocumentListQuery,
  useDocumentGetQuery,
  useDocumentSaveMutation,
  useDocumentHistoryQuery,
  useLazyDocumentListQuery,
} = documentApi;
