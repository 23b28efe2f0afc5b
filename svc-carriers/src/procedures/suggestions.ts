import { fail, ok, SuggestParams, describeIssues } from '@caravan/contracts';
import { BusinessError, type ServiceKit } from '@caravan/service-kit';
import express from 'express';
import type { Suggestions } from '../adapters/dadata';

/** POST /api/suggest_address | _company | _bank {query, count}: the lookups of the address, company and bank inputs. */
export function registerSuggestions(kit: ServiceKit, suggestions: Suggestions) {
  const routes = {
    '/suggest_address': (q: string, n: number) => suggestions.address(q, n),
    '/suggest_company': (q: string, n: number) => suggestions.company(q, n),
    '/suggest_bank': (q: string, n: number) => suggestions.bank(q, n),
  };
  for (const [path, lookup] of Object.entries(routes))
    kit.api.post(path, express.json({ limit: '10kb' }), async (req, res) => {
      const params = SuggestParams.safeParse(req.body);
      if (!params.success) {
        res.json(fail(describeIssues(params.error.issues, req.body)));
        return;
      }
      try {
        res.json(ok(await lookup(params.data.query, params.data.count)));
      } catch (err) {
        if (!(err instanceof BusinessError)) throw err;
        res.json(fail(err.message));
      }
    });
}
