import type { EntityManager } from 'typeorm';

export interface PublishedWorkflowRow {
  tenant_id: string;
  environment_id: string;
  id: string;
  workflow_id: string;
  all_customers: boolean;
  customer_ids: string[];
  title: string;
  description: string | null;
  input_form: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

export type PublishedWorkflowChanges = Partial<Pick<PublishedWorkflowRow, 'all_customers' | 'customer_ids' | 'title' | 'description' | 'input_form'>>;

const COLUMNS = 'tenant_id, environment_id, id, workflow_id, all_customers, customer_ids, title, description, input_form, created_at, updated_at';
/** A customer sees what is published to all customers or names it; without a customer, everything. */
const VISIBLE = `($1::uuid is null or all_customers or $1 = any(customer_ids))`;

export const publishedWorkflowsRepository = {
  async insert(m: EntityManager, row: Omit<PublishedWorkflowRow, 'created_at' | 'updated_at'>): Promise<PublishedWorkflowRow> {
    const rows = await m.query<PublishedWorkflowRow[]>(
      `insert into portal.published_workflows (tenant_id, environment_id, id, workflow_id, all_customers, customer_ids, title, description, input_form)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${COLUMNS}`,
      [row.tenant_id, row.environment_id, row.id, row.workflow_id, row.all_customers, row.customer_ids, row.title, row.description, row.input_form],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string, customerId: string | null): Promise<PublishedWorkflowRow | undefined> {
    return (await m.query<PublishedWorkflowRow[]>(`select ${COLUMNS} from portal.published_workflows where id = $2 and ${VISIBLE}`, [customerId, id]))[0];
  },

  async list(m: EntityManager, f: { customerId: string | null; afterId: string | null; workflowId?: string; limit: number }): Promise<PublishedWorkflowRow[]> {
    return await m.query<PublishedWorkflowRow[]>(
      `select ${COLUMNS} from portal.published_workflows
        where ${VISIBLE} and ($2::uuid is null or id > $2) and ($3::uuid is null or workflow_id = $3)
        order by id limit $4`,
      [f.customerId, f.afterId, f.workflowId ?? null, f.limit + 1],
    );
  },

  async update(m: EntityManager, id: string, c: PublishedWorkflowChanges): Promise<PublishedWorkflowRow | undefined> {
    const [rows] = await m.query<[PublishedWorkflowRow[], number]>(
      `update portal.published_workflows set
         all_customers = coalesce($2, all_customers),
         customer_ids = coalesce($3, customer_ids),
         title = coalesce($4, title),
         description = case when $5::boolean then $6 else description end,
         input_form = coalesce($7, input_form),
         updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id, c.all_customers ?? null, c.customer_ids ?? null, c.title ?? null, c.description !== undefined, c.description ?? null, c.input_form ?? null],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`delete from portal.published_workflows where id = $1`, [id]);
    return count > 0;
  },
};
