// The keys `pds config` manages and the check of each value, so a typo fails at `set` and not
// at the next command that reads it.
import { CONFIG_KEYS, type ConfigKey } from '../../lib/config/keys.js';
import { checkApiUrl, parseRetryBudget, parseSwitch, parseTimeout } from '../../lib/config/settings.js';
import { checkUuid } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';

/** `api-url` or `api_url`: the flag's spelling or the output's. */
export function configKey(key: string): ConfigKey {
  const stored = key.replace(/_/g, '-');
  if ((CONFIG_KEYS as readonly string[]).includes(stored)) return stored as ConfigKey;
  const details = [`valid keys: ${CONFIG_KEYS.join(', ')}`];
  if (key === 'token') details.push('the token is managed by `pds auth login`, `pds auth token` and `pds auth logout`');
  throw new UsageError(`unknown config key '${key}'`, { details });
}

/** A key as output prints it: `api_url`, like the service's fields and `auth status`. */
export function outputKey(key: ConfigKey): string {
  return key.replace(/-/g, '_');
}

/** The value as it is stored: checked, and normalised where two spellings mean the same. */
export function configValue(key: ConfigKey, value: string): string {
  const trimmed = value.trim();
  switch (key) {
    case 'api-url':
      checkApiUrl(trimmed);
      return trimmed.replace(/\/+$/, '');
    case 'project':
      checkUuid(trimmed, 'project id');
      return trimmed.toLowerCase();
    case 'timeout':
      return String(parseTimeout(trimmed, 'timeout'));
    case 'retry-budget':
      return String(parseRetryBudget(trimmed, 'retry-budget'));
    case 'allow-http':
      return String(parseSwitch(trimmed, 'allow-http'));
  }
}
