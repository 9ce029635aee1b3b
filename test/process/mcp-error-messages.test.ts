// `pds mcp`'s errors name what was asked: a get of an unknown id names the kind, the id and the
// project; tool titles read as English.
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { callTool, connectMcp } from '../helpers/mcp.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('pds mcp errors', () => {
  it('a get of an unknown id names the kind, the id and the project; titles read as English', async () => {
    const server = await connectMcp(emulator);
    try {
      const missing = await callTool(server.client, 'get_artist', { id: 'art-missing-7' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toContain(`artist art-missing-7 not found in project ${DEMO_PROJECT}`);
      const { tools } = await server.client.listTools();
      const titles = new Map(tools.map((tool) => [tool.name, tool.title]));
      expect(titles.get('get_artist')).toBe('Get an artist');
      expect(titles.get('get_entity')).toBe('Get an entity');
      expect(titles.get('get_contract')).toBe('Get a contract');
      for (const title of titles.values()) expect(title ?? '').not.toMatch(/\ba [aeiou]/);
    } finally {
      await server.close();
    }
  });
});
