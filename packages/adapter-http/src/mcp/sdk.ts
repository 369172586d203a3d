import type * as McpServer from '@modelcontextprotocol/sdk/server/index.js';
import type * as McpTransport from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as McpTypes from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  readonly server: typeof McpServer;
  readonly transport: typeof McpTransport;
  readonly types: typeof McpTypes;
}
let sdk: McpSdk | undefined;

/** The MCP SDK (and zod and ajv under it) loads on the first MCP request, not at start. */
export const mcpSdk = (): McpSdk =>
  (sdk ??= {
    server: require('@modelcontextprotocol/sdk/server/index.js') as typeof McpServer,
    transport: require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof McpTransport,
    types: require('@modelcontextprotocol/sdk/types.js') as typeof McpTypes,
  });
