import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { components } from '@platform-sdk/client';
import { ListState, When } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { onePage, PAGE_SIZE, usePaged } from '../shell/use-paged';
import { CreateCustomerForm } from './create-customer.form';

type Customer = components['schemas']['CustomerResponseDto'];

/**
 * The tenant's customers (for tenants that embed the platform): `GET /portal/customers`, filtered
 * by name and status in the address; **Create customer** adds one (`POST /portal/customers`).
 */
export function CustomersPage() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const name = params.get('name') ?? '';
  const status = params.get('status') === 'active' || params.get('status') === 'disabled' ? params.get('status')! : '';
  const customers = usePaged(
    (cursor) => onePage(client.list<Customer>('/portal/customers', { name: name || undefined, status: status || undefined }, { pageSize: PAGE_SIZE, cursor })),
    `customers:${params.toString()}`,
  );
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Customer | null>(null);
  const set = (param: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(param, value);
    else next.delete(param);
    setParams(next);
  };
  return (
    <section aria-labelledby="customers-title">
      <div className="title-row">
        <h1 id="customers-title">Customers</h1>
        <button
          type="button"
          onClick={() => {
            setCreating(true);
            setCreated(null);
          }}
          disabled={creating}
        >
          Create customer
        </button>
      </div>
      {creating && (
        <CreateCustomerForm
          onCreated={(customer) => {
            setCreating(false);
            setCreated(customer);
            customers.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      {created && (
        <p role="status" className="notice">
          Customer {created.name} created: its id <code>{created.id}</code> is the <code>X-Scope-Key</code> for its runs and keys.
        </p>
      )}
      <div className="filters" role="search">
        <label>
          Name
          <input defaultValue={name} onBlur={(e) => set('name', e.target.value.trim())} placeholder="any name" />
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            <option>active</option>
            <option>disabled</option>
          </select>
        </label>
      </div>
      <ListState state={customers} empty="No customers match. Tenants that embed the platform create one per customer of theirs.">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id (X-Scope-Key)</th>
              <th scope="col">External id</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {customers.items.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td>
                  <code>{c.id}</code>
                </td>
                <td>{c.external_id ?? <span className="muted">—</span>}</td>
                <td>
                  <span className={`status status-${c.status === 'active' ? 'enabled' : 'disabled'}`}>{c.status}</span>
                </td>
                <td>
                  <When at={c.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </section>
  );
}
