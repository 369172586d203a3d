import { useQueryClient } from '@tanstack/react-query';
import { createContext, FormEvent, ReactNode, useContext, useEffect, useState } from 'react';
import { api, ApiError, currentToken, ok, setToken, whenExpired } from './api';

interface Session {
  readonly signedIn: boolean;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session>({ signedIn: false, signOut: async () => undefined });
export const useSession = () => useContext(SessionContext);

/**
 * Signed in or not. An expired session shows the sign-in form over the page instead of replacing
 * it, so whatever the person was typing is still there once they are back.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [signedIn, setSignedIn] = useState(currentToken() !== null);
  const [expired, setExpired] = useState(false);
  const queries = useQueryClient();
  useEffect(() => whenExpired(() => setExpired(true)), []);
  const signedInNow = () => {
    setSignedIn(true);
    setExpired(false);
    void queries.invalidateQueries();
  };
  const signOut = async () => {
    // A session token is revoked; an API key is only forgotten here (it is revoked on the keys page).
    if (currentToken()?.startsWith('vps_')) await api.POST('/api/user/logout').catch(() => undefined);
    setToken(null);
    queries.clear();
    setSignedIn(false);
  };
  if (!signedIn)
    return (
      <main className="container narrow">
        <SignIn onSignedIn={signedInNow} />
      </main>
    );
  return (
    <SessionContext.Provider value={{ signedIn, signOut }}>
      {children}
      {expired && (
        <dialog open aria-labelledby="expired-title">
          <article>
            <h2 id="expired-title">Your session has ended</h2>
            <p>Sign in again to go on; what you typed is kept.</p>
            <SignIn onSignedIn={signedInNow} />
          </article>
        </dialog>
      )}
    </SessionContext.Provider>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [mode, setMode] = useState<'password' | 'key'>('password');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === 'password') {
        setToken(null);
        const answer = await ok<{ token: string }>(api.POST('/api/user/login', { body: { email, password } }));
        setToken(answer.token);
      } else {
        setToken(key.trim());
        await ok(api.GET('/api/user/me'));
      }
      onSignedIn();
    } catch (err) {
      if (mode === 'key') setToken(null);
      setError(err instanceof ApiError && err.status === 401 ? 'That key was not accepted.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-label="Sign in">
      <h1>Sign in to voiceplane</h1>
      <fieldset role="group" aria-label="How to sign in">
        <button
          type="button"
          className={mode === 'password' ? '' : 'outline'}
          aria-pressed={mode === 'password'}
          onClick={() => setMode('password')}
        >
          E-mail and password
        </button>
        <button
          type="button"
          className={mode === 'key' ? '' : 'outline'}
          aria-pressed={mode === 'key'}
          onClick={() => setMode('key')}
        >
          API key
        </button>
      </fieldset>
      {mode === 'password' ? (
        <>
          <label>
            E-mail
            <input
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        </>
      ) : (
        <label>
          API key
          <input
            type="password"
            autoComplete="off"
            required
            placeholder="vp_…"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        </label>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" aria-busy={busy} disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
