import { useState, type FormEvent } from 'react';
import { describeError } from './errors';
import { ErrorMessage } from './list-state';
import type { OidcSettings } from './oidc-settings';
import { signIn, type Session } from './session';

export function SignInPage({ onSignedIn, initialError, oidc }: { onSignedIn: (session: Session) => void; initialError?: string; oidc: OidcSettings | null }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(initialError);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    signIn({ apiKey: key }).then(
      (session) => {
        setKey('');
        onSignedIn(session);
      },
      (e: unknown) => {
        setError(describeError(e));
        setBusy(false);
      },
    );
  };

  const single = () => {
    setBusy(true);
    setError(undefined);
    import('./oidc')
      .then(({ startOidcSignIn }) => startOidcSignIn(oidc!))
      .catch((e: unknown) => {
        setError(describeError(e));
        setBusy(false);
      });
  };

  return (
    <main className="sign-in" id="main">
      <h1>Platform console</h1>
      {oidc && (
        <section aria-label="Single sign-on">
          <button type="button" onClick={single} disabled={busy}>
            Continue with single sign-on
          </button>
          <p className="hint">At {new URL(oidc.issuer).host}; then pick the tenant to work in. Or use an API key:</p>
        </section>
      )}
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="sv_live_… or sv_test_…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
        />
        <p className="hint">Kept in this tab only (session storage) until you sign out or close it.</p>
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error && <ErrorMessage message={error} />}
    </main>
  );
}
