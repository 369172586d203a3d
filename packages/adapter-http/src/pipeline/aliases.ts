import { parameterPattern } from './path-parameters';

/**
 * Aliases are served by the canonical handler: the request line is rewritten
 * before routing, so auth, quotas, idempotency scopes and answers are those of the canonical route.
 */
export type AliasMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One alias operation; paths are written as the OpenAPI document writes them (`{id}`). */
export interface AliasRoute {
  readonly method: AliasMethod;
  readonly path: string;
  /** The canonical method, when the alias uses another one. */
  readonly canonicalMethod?: AliasMethod;
  readonly canonicalPath: string;
  /** Query values the alias fixes on the canonical route (they replace any the caller sent). */
  readonly query?: Readonly<Record<string, string>>;
  /** Which client calls it, for the reference. */
  readonly usedBy?: string;
}

export const ALIAS_ROUTES: readonly AliasRoute[] = [
  {
    method: 'POST',
    path: '/api/automate/conversations/{uuid}/disable-ai',
    canonicalPath: '/api/user/conversations/{uuid}/disable-ai',
  },
  {
    method: 'POST',
    path: '/api/automate/conversations/{uuid}/enable-ai',
    canonicalPath: '/api/user/conversations/{uuid}/enable-ai',
  },
  {
    method: 'POST',
    path: '/api/user/folders',
    canonicalPath: '/api/user/folder',
    usedBy: 'the MCP server’s create_folder',
  },
  {
    method: 'POST',
    path: '/api/ai/generate-reply',
    canonicalPath: '/api/user/ai/generate-reply',
    usedBy: 'the MCP server’s generate_ai_reply',
  },
  { method: 'PUT', path: '/api/user/folders/{id}', canonicalPath: '/api/user/folder/{id}' },
  { method: 'DELETE', path: '/api/user/folders/{id}', canonicalPath: '/api/user/folder/{id}' },
  {
    method: 'POST',
    path: '/api/user/labels',
    canonicalPath: '/api/user/label',
    usedBy: 'the MCP server’s create_label',
  },
  {
    method: 'PUT',
    path: '/api/user/labels/{id}',
    canonicalPath: '/api/user/label/{id}',
    usedBy: 'the MCP server’s update_label',
  },
  {
    method: 'DELETE',
    path: '/api/user/labels/{id}',
    canonicalPath: '/api/user/label/{id}',
    usedBy: 'the MCP server’s delete_label',
  },
  {
    method: 'GET',
    path: '/api/user/assistants/{id}',
    canonicalPath: '/api/user/assistant/{id}',
    usedBy: 'the OpenClaw plugin',
  },
  {
    method: 'PATCH',
    path: '/api/user/assistants/{id}',
    canonicalMethod: 'PUT',
    canonicalPath: '/api/user/assistant/{id}',
    usedBy: 'the OpenClaw plugin (a partial update, as PUT is)',
  },
  {
    method: 'GET',
    path: '/api/user/assistants/synthesizer-providers',
    canonicalPath: '/api/user/assistants/providers',
    query: { kind: 'synthesizer' },
    usedBy: 'the MCP server and the OpenClaw plugin',
  },
  {
    method: 'GET',
    path: '/api/user/assistants/transcriber-providers',
    canonicalPath: '/api/user/assistants/providers',
    query: { kind: 'transcriber' },
    usedBy: 'the MCP server and the OpenClaw plugin',
  },
  {
    method: 'GET',
    path: '/api/user/phone-numbers/all',
    canonicalPath: '/api/user/phone-numbers',
    usedBy: 'the MCP server',
  },
  { method: 'DELETE', path: '/api/user/phone-numbers/sip-trunks/{id}', canonicalPath: '/api/user/phone-numbers/{id}' },
  {
    method: 'POST',
    path: '/api/user/campaign',
    canonicalPath: '/api/user/campaigns',
    usedBy: 'white-label pages of the same API',
  },
  { method: 'GET', path: '/api/user/campaigns/{id}', canonicalPath: '/api/user/campaign/{id}' },
  { method: 'PUT', path: '/api/user/campaigns/{id}', canonicalPath: '/api/user/campaign/{id}' },
  { method: 'DELETE', path: '/api/user/campaigns/{id}', canonicalPath: '/api/user/campaign/{id}' },
  { method: 'POST', path: '/api/user/leads', canonicalPath: '/api/user/lead' },
  {
    method: 'POST',
    path: '/api/user/campaigns/{id}/leads/import',
    canonicalPath: '/api/user/campaign/{id}/leads/import',
  },
  { method: 'GET', path: '/api/user/lead/{id}', canonicalPath: '/api/user/leads/{id}' },
  { method: 'DELETE', path: '/api/user/lead/{id}', canonicalPath: '/api/user/leads/{id}' },
  {
    method: 'PUT',
    path: '/api/leads/{id}',
    canonicalPath: '/api/user/leads/{id}',
    usedBy: 'the MCP server’s update_lead (Famulor documents this path)',
  },
  {
    method: 'PATCH',
    path: '/api/user/leads/{id}',
    canonicalMethod: 'PUT',
    canonicalPath: '/api/user/leads/{id}',
    usedBy: 'the Activepieces piece',
  },
];

/** Every chat-app route is also served with `whatsapp` in place of `chatapp` (the public API's name). */
const CHATAPP_PREFIX = /^\/api\/user\/whatsapp(?=\/|$)/i;

interface CompiledAlias {
  readonly route: AliasRoute;
  readonly pattern: RegExp;
  readonly names: string[];
}

const COMPILED: readonly CompiledAlias[] = ALIAS_ROUTES.map((route) => {
  // Parameters keep their shape on aliases too: `/api/user/assistants/outbound` is never assistant "outbound".
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    names.push(name);
    return `(${parameterPattern(name)})`;
  });
  // Spelled as the router takes its routes: in any case, with or without a trailing slash (the canonical route
  // still checks the parameters' own shapes).
  return { route, pattern: new RegExp(`^${source}\\/?$`, 'i'), names };
});

export interface CanonicalRoute {
  readonly method: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
}

/** Returns the canonical request line, or null when no alias applies. */
export function canonicalRoute(method: string, path: string): CanonicalRoute | null {
  if (CHATAPP_PREFIX.test(path)) return { method, path: path.replace(CHATAPP_PREFIX, '/api/user/chatapp') };
  for (const { route, pattern, names } of COMPILED) {
    // HEAD goes where GET goes, as the router sends it.
    if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
    const found = pattern.exec(path);
    if (!found) continue;
    const canonicalPath = route.canonicalPath.replace(
      /\{([a-z_]+)\}/g,
      (_m, name: string) => found[names.indexOf(name) + 1],
    );
    return {
      method: method === 'HEAD' ? method : (route.canonicalMethod ?? method),
      path: canonicalPath,
      query: route.query,
    };
  }
  return null;
}

/**
 * The query string (`?…` or empty) of a rewritten request: the caller's pairs as sent (a `+` in a phone stays
 * a `+`), those the alias fixes replaced.
 */
export function canonicalSearch(search: string, fixed: Readonly<Record<string, string>> | undefined): string {
  if (!fixed) return search;
  const keyOf = (pair: string) => {
    const raw = pair.split('=')[0];
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const kept = search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && !Object.hasOwn(fixed, keyOf(pair)));
  const set = Object.entries(fixed).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `?${[...kept, ...set].join('&')}`;
}
