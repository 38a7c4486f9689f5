import { useCallback, useEffect, useState } from 'react';
import { describeError } from './errors';
import { ErrorMessage, Loading } from './list-state';
import { finishOidcSignIn } from './oidc';
import type { OidcSettings } from './oidc-settings';
import { signIn, type Session } from './session';
import { authorizedTenants } from './token-tenants';

/** One exchange per callback address: React's development mode runs effects twice, and a code works once. */
const exchanges = new Map<string, Promise<string>>();

type Step = { state: 'exchanging' } | { state: 'picking'; token: string; tenants: string[] } | { state: 'failed'; error: string };

/**
 * `/console/auth/callback`: the provider sends the browser back here with a code. The code is
 * exchanged (with the PKCE verifier this tab kept), then the user picks one of the tenants the
 * token authorizes (`X-SELECTED-TENANT` from then on); with one tenant there is nothing to pick.
 */
export function OidcCallbackPage({ settings, onSignedIn }: { settings: OidcSettings; onSignedIn: (session: Session) => void }) {
  const [step, setStep] = useState<Step>({ state: 'exchanging' });

  // onSignedIn is stable (App's useCallback): the effect below runs once per visit.
  const choose = useCallback(
    (token: string, tenant: string) => {
      signIn({ token, tenant }).then(onSignedIn, (e: unknown) => setStep({ state: 'failed', error: describeError(e) }));
    },
    [onSignedIn],
  );

  useEffect(() => {
    let cancelled = false;
    const href = window.location.href;
    if (!exchanges.has(href)) exchanges.set(href, finishOidcSignIn(settings, new URL(href)));
    exchanges.get(href)!.then(
      (token) => {
        if (cancelled) return;
        const tenants = authorizedTenants(token);
        if (tenants.length === 0) setStep({ state: 'failed', error: 'Your account is not authorized for any tenant.' });
        else if (tenants.length === 1) choose(token, tenants[0]);
        else setStep({ state: 'picking', token, tenants });
      },
      (e: unknown) => !cancelled && setStep({ state: 'failed', error: describeError(e) }),
    );
    return () => {
      cancelled = true;
    };
  }, [settings, choose]);

  if (step.state === 'exchanging') return <Loading label="Signing in…" />;
  if (step.state === 'failed')
    return (
      <main className="sign-in" id="main">
        <h1>Platform console</h1>
        <ErrorMessage message={step.error} />
        <p>
          <a href="/console/">Back to sign-in</a>
        </p>
      </main>
    );
  return (
    <main className="sign-in" id="main">
      <h1>Choose a tenant</h1>
      <ul className="tenant-picker" aria-label="Tenants">
        {step.tenants.map((tenant) => (
          <li key={tenant}>
            <button type="button" onClick={() => choose(step.token, tenant)}>
              {tenant}
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}
