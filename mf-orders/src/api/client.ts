import type { Client } from '@caravan/contracts';
import { baseApi, entityEndpoints, type EntityRow } from '@caravan/ui-kit';

export type ClientRow = Client & EntityRow;

export const clientApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    const client = entityEndpoints<ClientRow>(build, 'client');
    return { clientList: client.list, clientUpdate: client.update };
  },
});
export const { useClientListQuery, useClientUpdateMutation } = clientApi;
