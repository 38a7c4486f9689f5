import { useState } from 'react';

/** A secret (a key's value, a webhook's signing secret), shown this once (the API never gives it again), with a copy button. */
export function SecretOnce({ title, value, onDone, label = 'New key value' }: { title: string; value: string; onDone: () => void; label?: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <div className="secret" role="region" aria-label={label}>
      <h2>{title}</h2>
      <p>Copy it now: it is shown only this once.</p>
      <div className="secret-value">
        <code data-testid="secret-value">{value}</code>
        <button type="button" onClick={copy}>
          Copy
        </button>
        <span role="status">{copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the text instead' : ''}</span>
      </div>
      <button type="button" className="secondary" onClick={onDone}>
        I have saved it
      </button>
    </div>
  );
}
