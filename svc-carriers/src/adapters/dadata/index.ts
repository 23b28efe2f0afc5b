import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import { DadataClient, type Suggestions } from './client';
import { SandboxSuggestions } from './sandbox';

export { DadataClient, type Suggestions } from './client';
export { SandboxSuggestions } from './sandbox';

const Env = z.object({
  DADATA_API_KEY: z.string().default(''),
  DADATA_URL: z.url().default('https://suggestions.dadata.ru/suggestions/api/4_1/rs'),
});
export const suggestionsConfig = (env: Record<string, string | undefined>) => Env.parse(env);

/** The real DaData client when an API key is set; the built-in sandbox otherwise (ARCHITECTURE §9). */
export function createSuggestions(config: z.infer<typeof Env>, log: Logger): Suggestions {
  if (config.DADATA_API_KEY) return new DadataClient(config.DADATA_URL, config.DADATA_API_KEY);
  log.info('suggestions: no DADATA_API_KEY, using the built-in sandbox');
  return new SandboxSuggestions();
}
