import { useState, type FormEvent } from 'react';
import { describeError } from './errors';
import { ErrorMessage } from './list-state';
import { signIn, type Session } from './session';

export function SignInPage({ onSignedIn, initialError }: { onSignedIn: (session: Session) => void; initialError?: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(initialError);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    signIn(key).then(
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

  return (
    <main className="sign-in" id="main">
      <h1>Platform console</h1>
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
