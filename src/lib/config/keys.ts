/** Keys `pds config` reads and writes. The token is managed by `pds auth`. Apart from the config modules so
 * that help and completion can name them without loading the config code at start-up. */
export const CONFIG_KEYS = ['api-url', 'project', 'timeout', 'retry-budget', 'allow-http'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
