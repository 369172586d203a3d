import { hashToken, TOKENS } from '@voiceplane/application';
import type { ApiRuntime, Config } from '@voiceplane/composition';

export const DEMO_EMAIL = 'demo@voiceplane.local';

/** A demo API key in clear text: printed once, never stored. */
export interface DemoKey {
  readonly email: string;
  readonly apiKey: string;
  /** The console's password when it was generated here (DEMO_PASSWORD unset): printed once too. */
  readonly generatedPassword?: string;
}

/** First start on an empty database: a demo account to try the API with. */
export async function seedDemoAccount(runtime: ApiRuntime, config: Config): Promise<DemoKey | null> {
  const existing = await runtime.database.one<{ n: string }>('SELECT count(*) AS n FROM users');
  if (Number(existing?.n ?? 0) > 0) return null;
  // Someone signs in to the console as the demo user: without DEMO_PASSWORD a password is made and shown once.
  const generatedPassword =
    config.demoPassword === null ? runtime.container.get(TOKENS.Ids).secretToken('', 20) : undefined;
  const created = await runtime.container.get(TOKENS.CreateAccount).execute({
    name: 'Demo User',
    email: DEMO_EMAIL,
    password: config.demoPassword ?? generatedPassword,
    balance: 25,
  });
  if (!created.ok) return null;
  for (const c of runtime.contributions) await c.seedDemo?.(created.value.user.id);
  return {
    email: created.value.user.email,
    apiKey: created.value.apiKey.token,
    ...(generatedPassword ? { generatedPassword } : {}),
  };
}

/**
 * `--new-demo-key`: the way back to a key once the first start's output is gone. The new key is
 * added, so the keys already handed out keep working. Null when the database has no demo account.
 */
export async function issueDemoApiKey(runtime: ApiRuntime): Promise<DemoKey | null> {
  const user = await runtime.container.get(TOKENS.UserRepository).findByEmail(DEMO_EMAIL);
  if (!user) return null;
  const token = runtime.container.get(TOKENS.Ids).secretToken('vp_', 40);
  await runtime.container.get(TOKENS.CredentialRepository).createApiKey(user.id, 'new-demo-key', hashToken(token));
  return { email: user.email, apiKey: token };
}
