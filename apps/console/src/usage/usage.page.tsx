import type { components } from '@platform-sdk/client';
import { ok } from '../shell/api';
import { ErrorMessage, ListState, Loading, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAsync } from '../shell/use-async';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';

type Invoice = components['schemas']['InvoiceResponseDto'];

function money(minor: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(minor / 100);
}

/** The current period's use against the plan (`GET /subscription/usage`) and the issued invoices (`GET /subscription/invoices`). */
export function UsagePage() {
  const client = useClient();
  const usage = useAsync(() => ok(client.api.GET('/subscription/usage', {})), 'usage');
  const invoices = usePaged((cursor) => onePage(client.list<Invoice>('/subscription/invoices', {}, { pageSize: PAGE_SIZE, cursor })), 'invoices');
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage and invoices</h1>
      {usage.loading && !usage.value && <Loading />}
      {usage.error && <ErrorMessage message={usage.error} retry={usage.reload} />}
      {usage.value && (
        <>
          <p>
            Plan <strong>{usage.value.plan}</strong>, period <When at={usage.value.period_start} /> to <When at={usage.value.period_end} />.
          </p>
          <table aria-label="Use in this period">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Used</th>
                <th scope="col">Included</th>
                <th scope="col">Limit</th>
                <th scope="col">Remaining</th>
                <th scope="col">Sandbox (not billed)</th>
              </tr>
            </thead>
            <tbody>
              {usage.value.metrics.map((m) => (
                <tr key={m.metric}>
                  <th scope="row">{m.metric.replace('_', ' ')}</th>
                  <td>{m.used}</td>
                  <td>{m.included}</td>
                  <td>{m.limit ?? 'billed beyond included'}</td>
                  <td>{m.remaining ?? '—'}</td>
                  <td>{m.sandbox_used}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2>Invoices</h2>
      <ListState state={invoices} empty="No invoice issued yet: one is issued at the end of each period.">
        <table aria-label="Invoices">
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Plan</th>
              <th scope="col">Total</th>
              <th scope="col">Issued</th>
              <th scope="col">Lines</th>
            </tr>
          </thead>
          <tbody>
            {invoices.items.map((invoice) => (
              <tr key={invoice.id}>
                <th scope="row">
                  <When at={invoice.period_start} /> – <When at={invoice.period_end} />
                </th>
                <td>{invoice.plan}</td>
                <td>{money(invoice.total_minor, invoice.currency)}</td>
                <td>
                  <When at={invoice.issued_at} />
                </td>
                <td>
                  <details>
                    <summary>{invoice.lines.length} lines</summary>
                    <ul>
                      {invoice.lines.map((line) => (
                        <li key={line.item}>
                          {line.description}: {money(line.amount_minor, invoice.currency)}
                          {line.billed_quantity > 0 && ` (${line.billed_quantity} beyond ${line.included})`}
                        </li>
                      ))}
                    </ul>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}
