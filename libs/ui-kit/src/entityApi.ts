import type { ListParams, ListResult } from '@caravan/contracts';
import { baseApi } from './api';

export type EntityRow = { id: number; deleted: boolean; created_at: string } & Record<string, unknown>;
export type EntityListArgs = Partial<ListParams>;
type Builder = Parameters<Parameters<typeof baseApi.injectEndpoints>[0]['endpoints']>[0];

/**
 * The list and update endpoint definitions of one entity. A remote injects them under its own names:
 *   baseApi.injectEndpoints({ endpoints: (b) => { const e = entityEndpoints<Country>(b, 'country');
 *     return { countryList: e.list, countryUpdate: e.update }; } })
 * Lists are tagged by entity, so a save refreshes every open list of it.
 */
export function entityEndpoints<Row extends EntityRow>(build: Builder, entity: string) {
  return {
    list: build.query<ListResult<Row>, EntityListArgs>({
      query: (params) => ({ method: `${entity}_list`, params }),
      providesTags: [{ type: 'Entity', id: entity }],
    }),
    update: build.mutation<Row, Record<string, unknown> & { id: number }>({
      query: (params) => ({ method: `${entity}_update`, params }),
      invalidatesTags: [{ type: 'Entity', id: entity }],
    }),
  };
}
