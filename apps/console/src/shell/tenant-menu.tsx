import { useId, useState, type KeyboardEvent } from 'react';
import { describeError } from './errors';
import { switchTenant, type Session } from './session';

/**
 * The header's tenant switch for a user whose token authorizes several tenants: a disclosure
 * button and a list of the other tenants (plain buttons, reachable with Tab; Escape closes it).
 * Nothing for a key or a single tenant: a key belongs to one tenant.
 */
export function TenantMenu({ session, onSwitched }: { session: Session; onSwitched: (session: Session) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listId = useId();
  if (!('token' in session.credential) || session.tenants.length < 2) return null;
  const current = session.credential.tenant;

  const choose = (tenant: string) => {
    setBusy(true);
    setError(null);
    switchTenant(session, tenant).then(
      (next) => {
        setBusy(false);
        setOpen(false);
        onSwitched(next);
      },
      (e: unknown) => {
        setBusy(false);
        setError(describeError(e));
      },
    );
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') setOpen(false);
  };

  return (
    <div className="tenant-menu" onKeyDown={escape}>
      <button type="button" className="secondary" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)} title={`tenant ${current}`}>
        Tenant {current.slice(0, 8)} ▾
      </button>
      {open && (
        <div className="tenant-list" id={listId}>
          <ul aria-label="Switch tenant">
            {session.tenants.map((tenant) => (
              <li key={tenant}>
                <button
                  type="button"
                  disabled={busy || tenant === current}
                  aria-current={tenant === current ? 'true' : undefined}
                  onClick={() => choose(tenant)}
                >
                  {tenant}
                </button>
              </li>
            ))}
          </ul>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
