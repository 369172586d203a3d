import { NavLink, Outlet } from 'react-router';
import { useAccountEvents } from './events';
import { useSession } from './session';

const PAGES: readonly [string, string][] = [
  ['assistants', 'Assistants'],
  ['tools', 'Tools'],
  ['calls', 'Calls'],
  ['inbox', 'Inbox'],
  ['analytics', 'Analytics'],
  ['knowledge-bases', 'Knowledge bases'],
  ['numbers', 'Numbers'],
  ['api-keys', 'API keys'],
  ['deliveries', 'Deliveries'],
  ['billing', 'Billing'],
  ['automations', 'Automations'],
];

export function Layout() {
  const { signOut } = useSession();
  const live = useAccountEvents();
  return (
    <>
      <header className="container-fluid">
        <nav aria-label="Console">
          <ul>
            <li>
              <strong>voiceplane</strong>
            </li>
          </ul>
          <ul className="pages">
            {PAGES.map(([path, label]) => (
              <li key={path}>
                <NavLink to={`/${path}`}>{label}</NavLink>
              </li>
            ))}
          </ul>
          <ul>
            <li>
              <small aria-live="polite">{live === 'live' ? '● live' : '○ connecting'}</small>
            </li>
            <li>
              <button type="button" className="outline secondary" onClick={() => void signOut()}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main className="container-fluid">
        <Outlet />
      </main>
    </>
  );
}
