/**
 * Aliases are served by the canonical handler (CONTRACT §1.2): the path is rewritten before
 * routing, so auth, quotas and idempotency scopes are those of the canonical route.
 */
export interface AliasRule {
  readonly methods?: readonly string[];
  readonly from: RegExp;
  readonly to: string;
}

export const aliasRules: AliasRule[] = [
  { from: /^\/api\/user\/whatsapp(\/.*)?$/, to: '/api/user/chatapp$1' },
  { from: /^\/api\/automate\/conversations\/([^/]+)\/(disable-ai|enable-ai)$/, to: '/api/user/conversations/$1/$2' },
  { methods: ['PUT', 'DELETE'], from: /^\/api\/user\/folders\/([^/]+)$/, to: '/api/user/folder/$1' },
  { methods: ['GET'], from: /^\/api\/user\/assistants\/get$/, to: '/api/user/assistants' },
  { methods: ['DELETE'], from: /^\/api\/user\/phone-numbers\/sip-trunks\/([^/]+)$/, to: '/api/user/phone-numbers/$1' },
];

/** Returns the canonical path, or null when no alias applies. */
export function canonicalPath(method: string, path: string): string | null {
  for (const rule of aliasRules) {
    if (rule.methods && !rule.methods.includes(method)) continue;
    if (rule.from.test(path)) return path.replace(rule.from, rule.to);
  }
  return null;
}
