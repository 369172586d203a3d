import '@picocss/pico/css/pico.min.css';
import './styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { Layout } from './layout';
import { SessionProvider } from './session';
import { AssistantEditorPage } from './pages/assistant-editor';
import { AssistantsPage } from './pages/assistants';
import { CallPage } from './pages/call';
import { CallsPage } from './pages/calls';
import { InboxPage } from './pages/inbox';
import { ApiKeysPage, BillingPage, DeliveriesPage } from './pages/account-pages';
import { AutomationsPage } from './pages/automations';
import { KnowledgeBasesPage } from './pages/knowledge-bases';
import { NumbersPage } from './pages/numbers';
import { ToolEditorPage, ToolsPage } from './pages/tools';

// The charts library is the larger part of the bundle: loaded when the analytics page is first opened.
const AnalyticsPage = lazy(() => import('./pages/analytics').then((m) => ({ default: m.AnalyticsPage })));

// A failed call shows its error at once: only network hiccups are retried, never an answer of the API.
const queries = new QueryClient({
  defaultOptions: { queries: { retry: (count, error) => !(error instanceof ApiError) && count < 2, staleTime: 5_000 } },
});

const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/assistants" replace /> },
        { path: 'assistants', element: <AssistantsPage /> },
        { path: 'assistants/:id', element: <AssistantEditorPage /> },
        { path: 'tools', element: <ToolsPage /> },
        { path: 'tools/:id', element: <ToolEditorPage /> },
        { path: 'calls', element: <CallsPage /> },
        { path: 'calls/:id', element: <CallPage /> },
        { path: 'inbox', element: <InboxPage /> },
        { path: 'inbox/:uuid', element: <InboxPage /> },
        {
          path: 'analytics',
          element: (
            <Suspense fallback={<p aria-busy="true">Loading analytics…</p>}>
              <AnalyticsPage />
            </Suspense>
          ),
        },
        { path: 'knowledge-bases', element: <KnowledgeBasesPage /> },
        { path: 'numbers', element: <NumbersPage /> },
        { path: 'api-keys', element: <ApiKeysPage /> },
        { path: 'deliveries', element: <DeliveriesPage /> },
        { path: 'billing', element: <BillingPage /> },
        { path: 'automations', element: <AutomationsPage /> },
        { path: '*', element: <p>Not found.</p> },
      ],
    },
  ],
  { basename: '/app' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
