/**
 * Aliases are served by the canonical handler (CONTRACT §1.2): the request line is rewritten
 * before routing, so auth, quotas and idempotency scopes are those of the canonical route.
 */
export interface AliasRule {
  readonly methods?: readonly string[];
  readonly from: RegExp;
  readonly to: string;
  /** The canonical method, when the alias uses another one. */
  readonly method?: string;
}

export interface CanonicalRoute {
  readonly method: string;
  readonly path: string;
}

export const aliasRules: AliasRule[] = [
  { from: /^\/api\/user\/whatsapp(\/.*)?$/, to: '/api/user/chatapp$1' },
  { from: /^\/api\/automate\/conversations\/([^/]+)\/(disable-ai|enable-ai)$/, to: '/api/user/conversations/$1/$2' },
  { methods: ['PUT', 'DELETE'], from: /^\/api\/user\/folders\/([^/]+)$/, to: '/api/user/folder/$1' },
  // The OpenClaw plugin updates with PATCH on the plural path.
  { methods: ['PATCH'], from: /^\/api\/user\/assistants\/([^/]+)$/, to: '/api/user/assistant/$1', method: 'PUT' },
  { methods: ['DELETE'], from: /^\/api\/user\/phone-numbers\/sip-trunks\/([^/]+)$/, to: '/api/user/phone-numbers/$1' },
];

/** Returns the canonical request line, or null when no alias applies. */
export function canonicalRoute(method: string, path: string): CanonicalRoute | null {
  for (const rule of aliasRules) {
    if (rule.methods && !rule.methods.includes(method)) continue;
    if (rule.from.test(path)) return { method: rule.method ?? method, path: path.replace(rule.from, rule.to) };
  }
  return null;
}
