import type { AddressSuggestion, BankSuggestion, CompanySuggestion } from '@caravan/contracts';
import { BusinessError } from '@caravan/service-kit';
import { toAddress, toBank, toCompany } from './mapping';
import type { DadataAddress, DadataBank, DadataParty, DadataReply } from './types';

/** Address, company and bank lookups, whoever answers them. */
export interface Suggestions {
  address(query: string, count: number): Promise<AddressSuggestion[]>;
  company(query: string, count: number): Promise<CompanySuggestion[]>;
  bank(query: string, count: number): Promise<BankSuggestion[]>;
}

export const LOOKUP_UNAVAILABLE = 'сервис подсказок недоступен, заполните поля вручную';

/** A company is looked up by its INN (findById) when the query is one, by name otherwise. */
export const isInnQuery = (query: string) => /^\d{10}$|^\d{12}$/.test(query);

/** The real DaData suggestions API: POST JSON with `Authorization: Token <key>`. */
export class DadataClient implements Suggestions {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs = 5000,
  ) {}

  private async post<T>(path: string, body: Record<string, unknown>): Promise<T[]> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Token ${this.apiKey}`,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new BusinessError(LOOKUP_UNAVAILABLE);
    }
    if (!res.ok) throw new BusinessError(`${LOOKUP_UNAVAILABLE} (HTTP ${res.status})`);
    const reply = (await res.json()) as DadataReply<T>;
    return reply.suggestions ?? [];
  }

  async address(query: string, count: number) {
    return (await this.post<DadataAddress>('suggest/address', { query, count })).map(toAddress);
  }

  async company(query: string, count: number) {
    const path = isInnQuery(query) ? 'findById/party' : 'suggest/party';
    return (await this.post<DadataParty>(path, { query, count })).map(toCompany);
  }

  async bank(query: string, count: number) {
    return (await this.post<DadataBank>('suggest/bank', { query, count })).map(toBank);
  }
}
