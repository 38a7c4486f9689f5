import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { ExecutionDetailPage } from './executions/execution-detail.page';
import { ExecutionsPage } from './executions/executions.page';
import { KeysPage } from './keys/keys.page';
import { describeError } from './shell/errors';
import { ErrorMessage, Loading } from './shell/list-state';
import { loadOidcSettings, type OidcSettings } from './shell/oidc-settings';
import { signIn, signOut, storedCredential, type Session } from './shell/session';
import { SessionContext } from './shell/session-context';
import { SignInPage } from './shell/sign-in.page';
import { TenantMenu } from './shell/tenant-menu';
import { TasksPage } from './tasks/tasks.page';
import { TriggersPage } from './triggers/triggers.page';
import { WorkflowsPage } from './workflows/workflows.page';

// The editor brings React Flow and dagre: loaded only when a workflow is opened.
const WorkflowEditorPage = lazy(() => import('./workflows/workflow-editor.page').then((m) => ({ default: m.WorkflowEditorPage })));
// The pages added after the first pass are loaded when first opened, to keep the first load small.
const KeyDetailPage = lazy(() => import('./keys/key-detail.page').then((m) => ({ default: m.KeyDetailPage })));
const WorkflowVersionsPage = lazy(() => import('./workflows/workflow-versions.page').then((m) => ({ default: m.WorkflowVersionsPage })));
const ConnectionsPage = lazy(() => import('./connections/connections.page').then((m) => ({ default: m.ConnectionsPage })));
const UsagePage = lazy(() => import('./usage/usage.page').then((m) => ({ default: m.UsagePage })));
const CustomersPage = lazy(() => import('./customers/customers.page').then((m) => ({ default: m.CustomersPage })));
const WebhooksPage = lazy(() => import('./webhooks/webhooks.page').then((m) => ({ default: m.WebhooksPage })));
// Single sign-on's code exchange (oauth4webapi, jose): only on the way back from the provider.
const OidcCallbackPage = lazy(() => import('./shell/oidc-callback.page').then((m) => ({ default: m.OidcCallbackPage })));
const WebhookDetailPage = lazy(() => import('./webhooks/webhook-detail.page').then((m) => ({ default: m.WebhookDetailPage })));

type Boot = { state: 'checking' } | { state: 'signed-out'; error?: string } | { state: 'signed-in'; session: Session };

export function App() {
  const location = useLocation();
  const navigate = useNavigate();
  const [boot, setBoot] = useState<Boot>(() => (storedCredential() ? { state: 'checking' } : { state: 'signed-out' }));
  // undefined until /console/config.json has answered: whether single sign-on is offered.
  const [oidc, setOidc] = useState<OidcSettings | null | undefined>(undefined);

  useEffect(() => {
    void loadOidcSettings().then(setOidc);
  }, []);

  // A credential kept from earlier in this tab is checked again (it may have been revoked since).
  useEffect(() => {
    const credential = storedCredential();
    if (!credential) return;
    signIn(credential).then(
      (session) => setBoot({ state: 'signed-in', session }),
      (e: unknown) => {
        signOut();
        setBoot({ state: 'signed-out', error: describeError(e) });
      },
    );
  }, []);

  const signedIn = useCallback(
    (session: Session) => {
      setBoot({ state: 'signed-in', session });
      // Off the callback address: its code is spent.
      if (window.location.pathname.startsWith('/console/auth/')) void navigate('/workflows', { replace: true });
    },
    [navigate],
  );

  if (location.pathname === '/auth/callback') {
    if (oidc === undefined) return <Loading label="Signing in…" />;
    if (oidc === null) return <ErrorMessage message="Single sign-on is not configured on this platform." />;
    if (boot.state !== 'signed-in')
      return (
        <Suspense fallback={<Loading label="Signing in…" />}>
          <OidcCallbackPage settings={oidc} onSignedIn={signedIn} />
        </Suspense>
      );
  }
  if (boot.state === 'checking' || (boot.state === 'signed-out' && oidc === undefined)) return <Loading label="Signing in…" />;
  if (boot.state === 'signed-out') return <SignInPage initialError={boot.error} oidc={oidc ?? null} onSignedIn={signedIn} />;
  const leave = () => {
    signOut();
    setBoot({ state: 'signed-out' });
  };
  // Another tenant: what the address names (a run, a workflow, a filter) belongs to the first
  // one, so the section's list opens; the key below remounts the pages, which load their data again.
  const switched = (session: Session) => {
    setBoot({ state: 'signed-in', session });
    void navigate(`/${location.pathname.split('/')[1] ?? ''}`);
  };
  return (
    <SessionContext.Provider value={boot.session}>
      <Layout session={boot.session} onSignOut={leave} onSwitched={switched}>
        <Suspense key={boot.session.me.tenant_id} fallback={<Loading />}>
          <Routes>
            <Route path="/" element={<Navigate to="/workflows" replace />} />
            <Route path="/keys" element={<KeysPage />} />
            <Route path="/keys/:id" element={<KeyDetailPage />} />
            <Route path="/workflows" element={<WorkflowsPage />} />
            <Route path="/workflows/new" element={<WorkflowEditorPage />} />
            <Route path="/workflows/:id" element={<WorkflowEditorPage />} />
            <Route path="/workflows/:id/versions" element={<WorkflowVersionsPage />} />
            <Route path="/executions" element={<ExecutionsPage />} />
            <Route path="/executions/:id" element={<ExecutionDetailPage />} />
            <Route path="/tasks" element={<TasksPage />} />
            <Route path="/triggers" element={<TriggersPage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/webhooks/:id" element={<WebhookDetailPage />} />
            <Route path="/connections" element={<ConnectionsPage />} />
            <Route path="/usage" element={<UsagePage />} />
            <Route path="/customers" element={<CustomersPage />} />
            <Route path="*" element={<ErrorMessage message="No such page in the console." />} />
          </Routes>
        </Suspense>
      </Layout>
    </SessionContext.Provider>
  );
}

const PAGES = [
  ['/workflows', 'Workflows'],
  ['/executions', 'Executions'],
  ['/tasks', 'Tasks'],
  ['/triggers', 'Triggers'],
  ['/webhooks', 'Webhooks'],
  ['/connections', 'Connections'],
  ['/keys', 'API keys'],
  ['/usage', 'Usage'],
  ['/customers', 'Customers'],
] as const;

function Layout({
  session,
  onSignOut,
  onSwitched,
  children,
}: {
  session: Session;
  onSignOut: () => void;
  onSwitched: (session: Session) => void;
  children: React.ReactNode;
}) {
  return (
    <div className="layout">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span className="brand">Platform console</span>
        <nav aria-label="Sections">
          {PAGES.map(([to, label]) => (
            <NavLink key={to} to={to}>
              {label}
            </NavLink>
          ))}
        </nav>
        <span className="who" title={`tenant ${session.me.tenant_id}`}>
          {session.me.name ?? (typeof session.me.email === 'string' ? session.me.email : undefined) ?? session.me.key_id ?? session.me.type}
          {session.me.mode ? ` · ${session.me.mode}` : ` · tenant ${session.me.tenant_id.slice(0, 8)}`}
        </span>
        <TenantMenu session={session} onSwitched={onSwitched} />
        <button type="button" className="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
