// The parts of the MCP SDK the server uses. scripts/build.js bundles this module on its own (with
// its own copy of zod): inside the split bundle the SDK would share zod's core with every command's
// chunks and pull all of it into their start-up.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
