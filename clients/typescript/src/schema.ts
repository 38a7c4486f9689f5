// Generated from the gateway's merged OpenAPI description (/v3/api-docs) by openapi-typescript.
// Do not edit: run `npm run generate:client` against a running platform after a route changes.
/* eslint-disable */
export interface paths {
    "/account/api-keys/scopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the scope catalogue
         * @description Every scope a key can be granted, with what it allows; a key can create keys only within its own scopes.
         *
         *     Any valid credential of the tenant.
         */
        get: operations["account_apiKeys_scopes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/data-planes/{dataPlaneId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an API key in a data plane
         * @description A key of the data plane in the path: live in production, test in sandbox. The value (`key`) is returned only in this answer; only a keyed hash is stored. The scopes must be within the caller's own.
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        post: operations["account_apiKeys_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Key records of the tenant (never their values); filter by data plane, status and type.
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        get: operations["account_apiKeys_list"];
        put?: never;
        /**
         * Create an API key
         * @description The account service form of key creation, with `data_plane_id` in the body. The value (`key`) is returned only in this answer; only a keyed hash is stored.
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        post: operations["account_apiKeys_createInAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/data-planes/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Key records of the tenant (never their values); filter by data plane, status and type.
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        get: operations["account_apiKeys_list_apiV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/data-planes/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description One key record: its scopes, status, expiry, last use and rotation (never its value).
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        get: operations["account_apiKeys_get_apiV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description One key record: its scopes, status, expiry, last use and rotation (never its value).
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        get: operations["account_apiKeys_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/data-planes/api-keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key
         * @description Issues a new key with the same name, type and scopes; the old one becomes `rotated` (with `replaced_by`), keeps working for `transition_period_seconds` (0 to 30 days), then stops.
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        post: operations["account_apiKeys_rotate_apiV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key
         * @description Issues a new key with the same name, type and scopes; the old one becomes `rotated` (with `replaced_by`), keeps working for `transition_period_seconds` (0 to 30 days), then stops.
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        post: operations["account_apiKeys_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/data-planes/api-keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key fails on its next request in every service (caches drop it at once).
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        post: operations["account_apiKeys_revoke_apiV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key fails on its next request in every service (caches drop it at once).
         *
         *     Requires the scope `api_keys:manage` (a key with `*` has every scope).
         */
        post: operations["account_apiKeys_revoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit log
         * @description Every use of an API key of the tenant (method, path, HTTP status, request id, address), newest first; filter by key name, endpoint, success or error and date range.
         *
         *     Requires the scope `account:read` (a key with `*` has every scope).
         */
        get: operations["account_audit_logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api-keys/{keyId}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the usage of an API key
         * @description Requests made with one key over a date range (default: the last 30 days): totals, successes, errors, and counts per endpoint and per day.
         *
         *     Requires the scope `account:read` (a key with `*` has every scope).
         */
        get: operations["account_audit_usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe the caller
         * @description Who is calling: for a JWT the user (`type: user`, email, tenants), for an API key the key (`type: api_key`, name, scopes, mode, customer scope); both with the tenant and environment in effect.
         *
         *     Any valid credential of the tenant.
         */
        get: operations["account_me_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List organizations
         * @description The organizations of the tenant, by id.
         *
         *     Requires the scope `account:read` (a key with `*` has every scope).
         */
        get: operations["account_me_organizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/team/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List team members
         * @description The users of the tenant's teams with their role, by team.
         *
         *     Requires the scope `account:read` (a key with `*` has every scope).
         */
        get: operations["account_me_members"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a tenant (platform admin)
         * @description Initial tenant creation with the platform admin token (`PLATFORM_ADMIN_TOKEN`): the tenant, its owner, an organization, the production and sandbox data planes, and one live and one test key with scope `*` (their values are shown only here).
         */
        post: operations["account_tenants_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up: create a tenant for the signed-in user
         * @description A signed-in user (a JWT sent without X-SELECTED-TENANT) creates a tenant it owns, with an organization and the production and sandbox data planes; no key is made (create one with the user's JWT and the new tenant).
         */
        post: operations["account_tenants_signup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Customers of the caller's data plane; filter by external id.
         *
         *     Requires the scope `portal:read` (a key with `*` has every scope).
         */
        get: operations["portal_customers_list"];
        put?: never;
        /**
         * Create a customer
         * @description A customer of the tenant in the caller's data plane; its id scopes customer keys, executions and data rows.
         *
         *     Requires the scope `portal:write` (a key with `*` has every scope).
         */
        post: operations["portal_customers_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a customer
         * @description One customer by id.
         *
         *     Requires the scope `portal:read` (a key with `*` has every scope).
         */
        get: operations["portal_customers_get"];
        put?: never;
        post?: never;
        /**
         * Delete a customer
         * @description Deletes a customer that no longer has API keys (revoke them first).
         *
         *     Requires the scope `portal:write` (a key with `*` has every scope).
         */
        delete: operations["portal_customers_delete"];
        options?: never;
        head?: never;
        /**
         * Change a customer
         * @description Changes the fields sent (name, external_id, metadata) and keeps the others.
         *
         *     Requires the scope `portal:write` (a key with `*` has every scope).
         */
        patch: operations["portal_customers_update"];
        trace?: never;
    };
    "/api/v1/workflow/workflows/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a workflow definition
         * @description Checks a definition without saving it (step types, ids, gotos, expressions) and lists every problem with its step id and JSON path; `valid` is true when there is none.
         *
         *     Requires the scope `workflows:read` (a key with `*` has every scope).
         */
        post: operations["run_workflows_validate_apiV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/workflows/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a workflow definition
         * @description Checks a definition without saving it (step types, ids, gotos, expressions) and lists every problem with its step id and JSON path; `valid` is true when there is none.
         *
         *     Requires the scope `workflows:read` (a key with `*` has every scope).
         */
        post: operations["run_workflows_validate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows
         * @description The current version of each workflow not deleted, by name; filter by status and name prefix.
         *
         *     Requires the scope `workflows:read` (a key with `*` has every scope).
         */
        get: operations["run_workflows_list_apiV1"];
        put?: never;
        /**
         * Create a workflow
         * @description Saves a definition as version 1 of a new workflow, after the same checks as validate (400 lists every problem in `details`).
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        post: operations["run_workflows_create_apiV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows
         * @description The current version of each workflow not deleted, by name; filter by status and name prefix.
         *
         *     Requires the scope `workflows:read` (a key with `*` has every scope).
         */
        get: operations["run_workflows_list"];
        put?: never;
        /**
         * Create a workflow
         * @description Saves a definition as version 1 of a new workflow, after the same checks as validate (400 lists every problem in `details`).
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        post: operations["run_workflows_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow
         * @description The current version of a workflow, or one of its past versions with `?version=`.
         *
         *     Requires the scope `workflows:read` (a key with `*` has every scope).
         */
        get: operations["run_workflows_get_apiV1"];
        /**
         * Replace a workflow
         * @description Replaces the whole definition (name, description, steps, input schema, settings): a new version; executions already started keep the version they run.
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        put: operations["run_workflows_replace_apiV1"];
        post?: never;
        /**
         * Delete a workflow
         * @description Deletes a workflow (softly: its versions stay for the executions that ran them); running executions finish, new starts are 404.
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        delete: operations["run_workflows_remove_apiV1"];
        options?: never;
        head?: never;
        /**
         * Change part of a workflow
         * @description Changes the fields sent (name, description, status, steps, input schema, settings) and keeps the others: a new version. A disabled workflow cannot be started.
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        patch: operations["run_workflows_patch_apiV1"];
        trace?: never;
    };
    "/run/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow
         * @description The current version of a workflow, or one of its past versions with `?version=`.
         *
         *     Requires the scope `workflows:read` (a key with `*` has every scope).
         */
        get: operations["run_workflows_get"];
        /**
         * Replace a workflow
         * @description Replaces the whole definition (name, description, steps, input schema, settings): a new version; executions already started keep the version they run.
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        put: operations["run_workflows_replace"];
        post?: never;
        /**
         * Delete a workflow
         * @description Deletes a workflow (softly: its versions stay for the executions that ran them); running executions finish, new starts are 404.
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        delete: operations["run_workflows_remove"];
        options?: never;
        head?: never;
        /**
         * Change part of a workflow
         * @description Changes the fields sent (name, description, status, steps, input schema, settings) and keeps the others: a new version. A disabled workflow cannot be started.
         *
         *     Requires the scope `workflows:write` (a key with `*` has every scope).
         */
        patch: operations["run_workflows_patch"];
        trace?: never;
    };
    "/v1/automations/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an automation
         * @description Starts the current version of a workflow with `input` and answers 202 with the run id at once; poll `GET /run/executions/{run_id}` until the status is final (`succeeded`, `failed`, `cancelled`, `timed_out`). `status` is `queued` for a new run (accepted; it may already be running by the time you read it) and the current status of the first run for a repeated Idempotency-Key.
         *
         *     Requires the scope `automations:run` (a key with `*` has every scope).
         */
        post: operations["run_executions_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/workflows/{id}/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Execute a workflow
         * @description The same start as `POST /v1/automations/run`, with the workflow id in the path: 202 with the run id; poll `GET /run/executions/{run_id}`.
         *
         *     Requires the scope `automations:run` (a key with `*` has every scope).
         */
        post: operations["run_executions_execute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executions
         * @description Executions newest first, without their steps; filter by workflow, status, trigger type and creation time.
         *
         *     Requires the scope `executions:read` (a key with `*` has every scope).
         */
        get: operations["run_executions_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/executions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an execution
         * @description Status, timings, input, output and error of an execution, and each step that ran (its latest attempt) with its input and output; secrets are redacted.
         *
         *     Requires the scope `executions:read` (a key with `*` has every scope).
         */
        get: operations["run_executions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/executions/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the logs of an execution
         * @description Log lines of an execution, oldest first; filter by level and step id.
         *
         *     Requires the scope `executions:read` (a key with `*` has every scope).
         */
        get: operations["run_executions_logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run/executions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an execution
         * @description Stops a queued, running or waiting execution: a running step is aborted and the execution ends `cancelled`.
         *
         *     Requires the scope `executions:write` (a key with `*` has every scope).
         */
        post: operations["run_executions_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List triggers
         * @description Triggers of the environment; filter by type, status and workflow.
         *
         *     Requires the scope `triggers:read` (a key with `*` has every scope).
         */
        get: operations["trigger_triggers_list"];
        put?: never;
        /**
         * Create a trigger
         * @description A schedule (`schedule.cron` or `schedule.interval_seconds`), event (`event.type`, optional JSONata `event.filter`) or webhook (`webhook_id`) trigger of a workflow; `input` is the run input, a literal object or a JSONata expression over the tick or event. An enabled schedule starts from now.
         *
         *     Requires the scope `triggers:write` (a key with `*` has every scope).
         */
        post: operations["trigger_triggers_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a trigger
         * @description One trigger by id, with its next tick when it is an enabled schedule.
         *
         *     Requires the scope `triggers:read` (a key with `*` has every scope).
         */
        get: operations["trigger_triggers_get"];
        put?: never;
        post?: never;
        /**
         * Delete a trigger
         * @description Deletes a trigger and its executions; runs it already started go on.
         *
         *     Requires the scope `triggers:write` (a key with `*` has every scope).
         */
        delete: operations["trigger_triggers_delete"];
        options?: never;
        head?: never;
        /**
         * Update a trigger
         * @description Changes the fields sent; a changed schedule restarts from now.
         *
         *     Requires the scope `triggers:write` (a key with `*` has every scope).
         */
        patch: operations["trigger_triggers_update"];
        trace?: never;
    };
    "/triggers/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Enable a trigger
         * @description Starts firing again; a schedule restarts from now (ticks missed while disabled are not fired). Enabling an enabled trigger changes nothing.
         *
         *     Requires the scope `triggers:write` (a key with `*` has every scope).
         */
        put: operations["trigger_triggers_enable"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Disable a trigger
         * @description Stops firing at once: once this answers, no replica fires it. Disabling a disabled trigger changes nothing.
         *
         *     Requires the scope `triggers:write` (a key with `*` has every scope).
         */
        put: operations["trigger_triggers_disable"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the executions of a trigger
         * @description Each firing of the trigger, newest first: when it was due, the run it started, or why it was skipped or failed; filter by status.
         *
         *     Requires the scope `triggers:read` (a key with `*` has every scope).
         */
        get: operations["trigger_triggers_executions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/public/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a task through a signed link
         * @description The task’s title, description, form and the decisions the link may make. Reading changes nothing: mail scanners that follow the link decide nothing.
         */
        get: operations["task_publicTasks_show"];
        put?: never;
        /**
         * Decide a task through a signed link
         * @description Completes the task once with one of the link’s decisions and the form data; the link is used up in the same transaction.
         */
        post: operations["task_publicTasks_submit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pending tasks
         * @description Tasks of the environment, oldest first; pending ones unless `status` says otherwise. Filter by assignee (`me` for the calling user), workflow, execution and deadline. A customer key sees only its customer’s tasks.
         *
         *     Requires the scope `tasks:read` (a key with `*` has every scope).
         */
        get: operations["task_tasks_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get task details
         * @description One task with what the person needs to decide: the form (JSON Schema with UI hints), the workflow name, the execution and the values the step chose to show.
         *
         *     Requires the scope `tasks:read` (a key with `*` has every scope).
         */
        get: operations["task_tasks_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assign task
         * @description Gives a pending task to a user who is a member of the tenant (`user_id`) or to one of its teams (`team_id`); emits `task.task.assigned`.
         *
         *     Requires the scope `tasks:write` (a key with `*` has every scope).
         */
        post: operations["task_tasks_assign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete task
         * @description Records the decision (`approve`/`reject` for an approval, `submit`/`reject` for a form) and the data, validated against the form’s JSON Schema; the waiting execution then resumes with the step output `{ decision, data, completed_by, completed_at }`. Allowed to the assignee, members of the assigned team, tenant keys with `tasks:write`, and a customer key for its customer’s tasks.
         *
         *     Requires the scope `tasks:write` (a key with `*` has every scope).
         */
        post: operations["task_tasks_complete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks/{id}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a signed task link
         * @description A signed, expiring, single-use address for someone without an account: `GET` on it shows the task’s title and form and changes nothing; `POST` decides once, with one of the link’s decisions. It stops working after use, expiry or the task’s completion.
         *
         *     Requires the scope `tasks:write` (a key with `*` has every scope).
         */
        post: operations["task_tasks_createLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/in/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a webhook delivery
         * @description The public receiving address of a webhook (its `url`): no platform credential. A webhook with `hmac` verification checks the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) against the raw body; one with `token` verification compares its header with the token; `none` checks nothing. Each request is recorded in the delivery log before the answer. An accepted delivery starts the workflow: `async` webhooks answer 202 at once; `sync` webhooks wait up to `timeout_ms` for the run and answer 200 with its final status, or 202 with `running`. A repeated `webhook-id` (or `Idempotency-Key`) is not run again: 200 with the first delivery and its run. An unknown or disabled webhook answers 404.
         */
        post: operations["webhook_receiver_receive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Webhooks of the environment, without their secrets; filter by workflow and enabled.
         *
         *     Requires the scope `webhooks:read` (a key with `*` has every scope).
         */
        get: operations["webhook_webhooks_list"];
        put?: never;
        /**
         * Create a webhook
         * @description A receiving address (`url`) that runs the workflow with each accepted delivery. With `hmac` or `token` verification the answer carries the secret (`secret`): this answer only, store it now.
         *
         *     Requires the scope `webhooks:write` (a key with `*` has every scope).
         */
        post: operations["webhook_webhooks_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description One webhook by id, without its secret.
         *
         *     Requires the scope `webhooks:read` (a key with `*` has every scope).
         */
        get: operations["webhook_webhooks_get"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Deletes a webhook and its delivery log; its receiving address answers 404 from then on.
         *
         *     Requires the scope `webhooks:write` (a key with `*` has every scope).
         */
        delete: operations["webhook_webhooks_delete"];
        options?: never;
        head?: never;
        /**
         * Update a webhook
         * @description Changes the fields sent. Changing the verification type to `hmac` or `token` makes a new secret, returned in this answer only.
         *
         *     Requires the scope `webhooks:write` (a key with `*` has every scope).
         */
        patch: operations["webhook_webhooks_update"];
        trace?: never;
    };
    "/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the secret of a webhook
         * @description Replaces the signing secret or token: the new one is in this answer only, and the old one stops verifying at once. A webhook without verification is answered unchanged.
         *
         *     Requires the scope `webhooks:write` (a key with `*` has every scope).
         */
        post: operations["webhook_webhooks_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries of a webhook
         * @description The delivery log, newest first: each request received (headers masked, the first 64 KiB of the body), its outcome and the run it started; filter by outcome and time.
         *
         *     Requires the scope `webhooks:read` (a key with `*` has every scope).
         */
        get: operations["webhook_webhooks_logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/logs/{deliveryId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a delivery
         * @description Starts the workflow again with a stored, accepted delivery: a copy is recorded as a new delivery (`replay_of`) and starts a new run.
         *
         *     Requires the scope `webhooks:write` (a key with `*` has every scope).
         */
        post: operations["webhook_webhooks_replay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/files/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file
         * @description A multipart/form-data upload, streamed to storage (up to UPLOAD_LIMIT_BYTES, default 100 MiB): the `file` part, and optionally `name` and `metadata`. The content type is sniffed from the bytes; a SHA-256 checksum is recorded.
         *
         *     Requires the scope `storage:write` (a key with `*` has every scope).
         */
        post: operations["storage_files_upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List files
         * @description Metadata of the files, newest first; filter by name prefix, content type and creation time.
         *
         *     Requires the scope `storage:read` (a key with `*` has every scope).
         */
        get: operations["storage_files_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/files/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a file
         * @description A file's metadata: name, size, sniffed content type, checksum, metadata, times.
         *
         *     Requires the scope `storage:read` (a key with `*` has every scope).
         */
        get: operations["storage_files_get"];
        put?: never;
        post?: never;
        /**
         * Delete a file
         * @description Deletes the file's metadata and its content.
         *
         *     Requires the scope `storage:write` (a key with `*` has every scope).
         */
        delete: operations["storage_files_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/files/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file
         * @description The content, streamed. `Range: bytes=a-b` gives 206 with that part; a range outside the file gives 416.
         *
         *     Requires the scope `storage:read` (a key with `*` has every scope).
         */
        get: operations["storage_files_content"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/files/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a file
         * @description Re-reads the stored content and compares its SHA-256 with the checksum recorded at upload.
         *
         *     Requires the scope `storage:read` (a key with `*` has every scope).
         */
        get: operations["storage_files_verify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List resources
         * @description Resources of the environment, by name; filter by type.
         *
         *     Requires the scope `storage:read` (a key with `*` has every scope).
         */
        get: operations["storage_resources_list"];
        put?: never;
        /**
         * Create a resource
         * @description A named configuration object: a name unique in the environment, a free-text type and a JSON config of up to 64 KiB.
         *
         *     Requires the scope `storage:write` (a key with `*` has every scope).
         */
        post: operations["storage_resources_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/resources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a resource
         * @description One resource by id.
         *
         *     Requires the scope `storage:read` (a key with `*` has every scope).
         */
        get: operations["storage_resources_get"];
        /**
         * Replace a resource
         * @description Replaces every field; a description not sent becomes null.
         *
         *     Requires the scope `storage:write` (a key with `*` has every scope).
         */
        put: operations["storage_resources_replace"];
        post?: never;
        /**
         * Delete a resource
         * @description Deletes a resource; workflows that refer to it fail when they next read it.
         *
         *     Requires the scope `storage:write` (a key with `*` has every scope).
         */
        delete: operations["storage_resources_delete"];
        options?: never;
        head?: never;
        /**
         * Change a resource
         * @description Changes the fields sent; `config` is merged into the stored one at the top level (a key set to null is removed).
         *
         *     Requires the scope `storage:write` (a key with `*` has every scope).
         */
        patch: operations["storage_resources_patch"];
        trace?: never;
    };
    "/storage/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List secrets
         * @description Names and metadata of the secrets, by name; values are never returned.
         *
         *     Requires the scope `secrets:read` (a key with `*` has every scope).
         */
        get: operations["storage_secrets_list"];
        put?: never;
        /**
         * Create a secret
         * @description Stores a value encrypted under a name unique in the environment; workflows read it as `secrets.<name>`. The value is never returned.
         *
         *     Requires the scope `secrets:write` (a key with `*` has every scope).
         */
        post: operations["storage_secrets_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a secret
         * @description A secret's metadata: description, times, last read; never its value.
         *
         *     Requires the scope `secrets:read` (a key with `*` has every scope).
         */
        get: operations["storage_secrets_get"];
        /**
         * Replace a secret
         * @description Replaces a secret's value, and its description when one is sent; runs started afterwards read the new value.
         *
         *     Requires the scope `secrets:write` (a key with `*` has every scope).
         */
        put: operations["storage_secrets_replace"];
        post?: never;
        /**
         * Delete a secret
         * @description Deletes a secret and its value; workflows that read it fail afterwards.
         *
         *     Requires the scope `secrets:write` (a key with `*` has every scope).
         */
        delete: operations["storage_secrets_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/data-tables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List data tables
         * @description Definitions of the data tables of the environment, by name.
         *
         *     Requires the scope `data:read` (a key with `*` has every scope).
         */
        get: operations["storage_dataTables_list"];
        put?: never;
        /**
         * Create a data table
         * @description A table of the environment with typed columns (text, number, boolean, timestamp, json), optional unique columns and indexes; every row also has id, created_at and updated_at. Tenant-wide credentials only (a customer-scoped caller gets 403).
         *
         *     Requires the scope `data:write` (a key with `*` has every scope).
         */
        post: operations["storage_dataTables_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/data-tables/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a data table
         * @description One table definition: columns, indexes, times.
         *
         *     Requires the scope `data:read` (a key with `*` has every scope).
         */
        get: operations["storage_dataTables_get"];
        put?: never;
        post?: never;
        /**
         * Delete a data table
         * @description Deletes a table and all its rows. Tenant-wide credentials only.
         *
         *     Requires the scope `data:write` (a key with `*` has every scope).
         */
        delete: operations["storage_dataTables_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/data-tables/{name}/rows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rows
         * @description Rows of a table, oldest first; filter by equality with `<column>=<value>` query parameters.
         *
         *     Requires the scope `data:read` (a key with `*` has every scope).
         */
        get: operations["storage_dataRows_list"];
        put?: never;
        /**
         * Insert rows
         * @description One row (an object of column values), or `{ rows: [...] }` (up to 10000) in one statement. Values are checked against the column types; a customer-scoped caller's rows belong to its customer.
         *
         *     Requires the scope `data:write` (a key with `*` has every scope).
         */
        post: operations["storage_dataRows_insert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/data-tables/{name}/rows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a row
         * @description Deletes one row by id.
         *
         *     Requires the scope `data:write` (a key with `*` has every scope).
         */
        delete: operations["storage_dataRows_delete"];
        options?: never;
        head?: never;
        /**
         * Change a row
         * @description Changes the columns sent and keeps the others.
         *
         *     Requires the scope `data:write` (a key with `*` has every scope).
         */
        patch: operations["storage_dataRows_update"];
        trace?: never;
    };
    "/v1/data/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query data with SQL
         * @description One read-only SQL SELECT over your data tables (by name) and the views workflows, executions and tasks, with `$1…$n` parameters bound. Runs under your tenant, environment and customer scope, within DATA_QUERY_TIMEOUT_MS; answers at most DATA_QUERY_MAX_ROWS rows (`truncated: true` when there were more).
         *
         *     Requires the scope `data:read` (a key with `*` has every scope).
         */
        post: operations["storage_dataQuery_query"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a notification
         * @description Accepts a notification for a channel (`channel_id`) or an ad-hoc Slack or Teams URL (`destination`). The body is Markdown and, with the subject, a Mustache template over `variables`; it is rendered per kind (HTML and text email, Slack mrkdwn, a Teams Adaptive Card). Stored before the answer and delivered asynchronously with retries; the same `idempotency_key` sends once. Over the tenant's sending limit: 429 with Retry-After.
         *
         *     Requires the scope `notifications:send` (a key with `*` has every scope).
         */
        post: operations["notification_notifications_send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get notification history
         * @description Notifications newest first, each with its attempts (time, outcome, remote status code, error); filter by channel, status and time.
         *
         *     Requires the scope `notifications:read` (a key with `*` has every scope).
         */
        get: operations["notification_notifications_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/history/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a notification
         * @description One notification with its status and every attempt.
         *
         *     Requires the scope `notifications:read` (a key with `*` has every scope).
         */
        get: operations["notification_notifications_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notification channels
         * @description Channels of the environment (a customer key: its own), without their credentials.
         *
         *     Requires the scope `notifications:read` (a key with `*` has every scope).
         */
        get: operations["notification_channels_list"];
        put?: never;
        /**
         * Create a notification channel
         * @description An `email` (SMTP with TLS or STARTTLS), `slack` (incoming webhook URL, or bot token and channel) or `teams` (incoming webhook or Workflows URL) channel. Credentials are sealed at rest and never returned.
         *
         *     Requires the scope `notifications:write` (a key with `*` has every scope).
         */
        post: operations["notification_channels_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a notification channel
         * @description One channel by id, without its credentials (`secrets` names those that are set).
         *
         *     Requires the scope `notifications:read` (a key with `*` has every scope).
         */
        get: operations["notification_channels_get"];
        put?: never;
        post?: never;
        /**
         * Delete a notification channel
         * @description Deletes the channel; its notifications stay in the history, and those not delivered yet fail.
         *
         *     Requires the scope `notifications:write` (a key with `*` has every scope).
         */
        delete: operations["notification_channels_delete"];
        options?: never;
        head?: never;
        /**
         * Update a notification channel
         * @description Changes the fields sent. The settings object of the channel's kind replaces the stored one; a credential left out is kept.
         *
         *     Requires the scope `notifications:write` (a key with `*` has every scope).
         */
        patch: operations["notification_channels_update"];
        trace?: never;
    };
    "/notifications/channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test a notification channel
         * @description Sends a short test message through the channel now (one attempt, no retries, not recorded in the history) and answers with the outcome.
         *
         *     Requires the scope `notifications:write` (a key with `*` has every scope).
         */
        post: operations["notification_channels_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of the platform
         * @description Asks every service for its health in parallel. 200 when each one is UP, 503 (with the same body) when one is DOWN or does not answer in time.
         */
        get: operations["gateway_health_platform"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/health/liveness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness of the gateway
         * @description Answers as long as the gateway process serves HTTP, whatever the state of the services.
         */
        get: operations["gateway_health_liveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/health/{service}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of one service
         * @description One service's own health check (its database and NATS connections), through the gateway.
         */
        get: operations["gateway_health_service"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/api-docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The merged OpenAPI description
         * @description This document: every service's description in one, for client generation. A service that does not answer is listed in `info.x-unavailable-services`. Needs a valid API key or JWT unless the platform runs with `DOCS_PUBLIC=true`.
         */
        get: operations["gateway_docs_merged"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v3/api-docs/{service}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One service's OpenAPI description
         * @description The description a service serves itself, through the gateway. Needs a valid API key or JWT unless the platform runs with `DOCS_PUBLIC=true`.
         */
        get: operations["gateway_docs_service"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        PlatformHealth: {
            /**
             * @description UP only when every service is UP
             * @enum {string}
             */
            status: "UP" | "DOWN";
            /** @description Each service by name */
            services: {
                [key: string]: {
                    /** @enum {string} */
                    status: "UP" | "DOWN";
                    latency_ms: number;
                    components?: {
                        [key: string]: {
                            /** @enum {string} */
                            status: "UP" | "DOWN";
                            /** @description How long the check took */
                            latency_ms: number;
                            /** @description Why the component is DOWN */
                            error?: string;
                        };
                    };
                    /** @enum {string} */
                    error?: "timed out" | "unreachable";
                };
            };
        };
        ServiceHealth: {
            /** @enum {string} */
            status: "UP" | "DOWN";
            /** @enum {string} */
            service: "account" | "catalog" | "connection" | "portal" | "run" | "trigger" | "task" | "webhook" | "storage" | "subscription" | "notification" | "ai-runtime" | "kb-worker";
            /** @description Each dependency checked: `database`, `nats` */
            components: {
                [key: string]: {
                    /** @enum {string} */
                    status: "UP" | "DOWN";
                    /** @description How long the check took */
                    latency_ms: number;
                    /** @description Why the component is DOWN */
                    error?: string;
                };
            };
        };
        CreateApiKeyRequestDto: {
            /** @example ci-deployer */
            name: string;
            /**
             * @description A tenant key reaches the whole tenant; a customer key one customer (execution scope).
             * @example tenant
             * @enum {string}
             */
            type: "tenant" | "customer";
            /**
             * Format: uuid
             * @description Required when type is customer.
             * @example 0194f1c2-0000-7000-8000-0000000000c1
             */
            customer_id?: string | null;
            /**
             * @example [
             *       "automations:run",
             *       "data:read"
             *     ]
             */
            scopes: ("automations:run" | "data:read" | "data:write" | "workflows:read" | "workflows:write" | "executions:read" | "executions:write" | "triggers:read" | "triggers:write" | "tasks:read" | "tasks:write" | "webhooks:read" | "webhooks:write" | "connections:read" | "connections:write" | "storage:read" | "storage:write" | "secrets:read" | "secrets:write" | "ai:run" | "kb:read" | "kb:write" | "notifications:send" | "notifications:read" | "notifications:write" | "portal:read" | "portal:write" | "subscription:read" | "account:read" | "api_keys:manage" | "*")[];
            /**
             * Format: date-time
             * @description The key stops working at this moment (null or absent: never).
             * @example 2027-01-01T00:00:00Z
             */
            expires_at?: string | null;
        };
        CreatedApiKeyResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /** @example ci-deployer */
            name: string;
            /**
             * @example tenant
             * @enum {string}
             */
            type: "tenant" | "customer";
            /**
             * @description live keys see production data, test keys sandbox data
             * @example live
             * @enum {string}
             */
            mode: "live" | "test";
            /**
             * Format: uuid
             * @example 0194f1c2-0000-7000-8000-000000000001
             */
            data_plane_id: string;
            /**
             * Format: uuid
             * @description The customer of a customer key
             * @example null
             */
            customer_id: string | null;
            /**
             * @example [
             *       "automations:run",
             *       "data:read"
             *     ]
             */
            scopes: string[];
            /**
             * @description The key's first 12 characters, to recognise it
             * @example sv_live_AbC1
             */
            prefix: string;
            /**
             * @example active
             * @enum {string}
             */
            status: "active" | "revoked" | "expired" | "rotated";
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example null
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            revoked_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            rotated_at: string | null;
            /**
             * Format: uuid
             * @description The key that replaced this one at rotation
             * @example null
             */
            replaced_by: string | null;
            /**
             * @description The key: shown only in this answer
             * @example sv_live_…
             */
            key: string;
        };
        CreateAccountApiKeyRequestDto: {
            /** @example ci-deployer */
            name: string;
            /**
             * @description A tenant key reaches the whole tenant; a customer key one customer (execution scope).
             * @example tenant
             * @enum {string}
             */
            type: "tenant" | "customer";
            /**
             * Format: uuid
             * @description Required when type is customer.
             * @example 0194f1c2-0000-7000-8000-0000000000c1
             */
            customer_id?: string | null;
            /**
             * @example [
             *       "automations:run",
             *       "data:read"
             *     ]
             */
            scopes: ("automations:run" | "data:read" | "data:write" | "workflows:read" | "workflows:write" | "executions:read" | "executions:write" | "triggers:read" | "triggers:write" | "tasks:read" | "tasks:write" | "webhooks:read" | "webhooks:write" | "connections:read" | "connections:write" | "storage:read" | "storage:write" | "secrets:read" | "secrets:write" | "ai:run" | "kb:read" | "kb:write" | "notifications:send" | "notifications:read" | "notifications:write" | "portal:read" | "portal:write" | "subscription:read" | "account:read" | "api_keys:manage" | "*")[];
            /**
             * Format: date-time
             * @description The key stops working at this moment (null or absent: never).
             * @example 2027-01-01T00:00:00Z
             */
            expires_at?: string | null;
            /**
             * Format: uuid
             * @description The data plane (environment) the key belongs to: production keys are live, sandbox keys test.
             * @example 0194f1c2-0000-7000-8000-000000000001
             */
            data_plane_id: string;
        };
        ApiKeyResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /** @example ci-deployer */
            name: string;
            /**
             * @example tenant
             * @enum {string}
             */
            type: "tenant" | "customer";
            /**
             * @description live keys see production data, test keys sandbox data
             * @example live
             * @enum {string}
             */
            mode: "live" | "test";
            /**
             * Format: uuid
             * @example 0194f1c2-0000-7000-8000-000000000001
             */
            data_plane_id: string;
            /**
             * Format: uuid
             * @description The customer of a customer key
             * @example null
             */
            customer_id: string | null;
            /**
             * @example [
             *       "automations:run",
             *       "data:read"
             *     ]
             */
            scopes: string[];
            /**
             * @description The key's first 12 characters, to recognise it
             * @example sv_live_AbC1
             */
            prefix: string;
            /**
             * @example active
             * @enum {string}
             */
            status: "active" | "revoked" | "expired" | "rotated";
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example null
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            revoked_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            rotated_at: string | null;
            /**
             * Format: uuid
             * @description The key that replaced this one at rotation
             * @example null
             */
            replaced_by: string | null;
        };
        RotateApiKeyRequestDto: {
            /**
             * @description How long the old key keeps working (seconds, up to 30 days).
             * @default 0
             * @example 86400
             */
            transition_period_seconds: number;
        };
        CreateTenantRequestDto: {
            /** @example Acme Inc. */
            name: string;
            /** @example owner@acme.test */
            owner_email: string;
        };
        SignupRequestDto: {
            /**
             * @description Name of the tenant to create, owned by the signed-in user
             * @example Acme Inc.
             */
            tenant_name: string;
        };
        /** @description One problem with one field of the request. */
        FieldError: {
            /**
             * @description Path of the field: `name`, `scopes[0]`, `steps[1].then[0].type`, a header or a parameter
             * @example name
             */
            field: string;
            /**
             * @description What is wrong with it
             * @example must be a string
             */
            message: string;
        };
        /** @description Every error answer of every service and of the gateway. */
        Error: {
            /**
             * @description The HTTP reason phrase of `status`
             * @example Not Found
             */
            error: string;
            /**
             * @description What went wrong, safe to show (server errors say only "Internal server error")
             * @example Workflow not found
             */
            message: string;
            /**
             * @description The HTTP status, repeated
             * @example 404
             */
            status: number;
            /**
             * @description The request id (also the `X-Request-Id` response header); logs of every service carry it
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            request_id: string;
            /** @description Field-level problems (validation failures) */
            details?: components["schemas"]["FieldError"][];
        };
        CreateCustomerRequestDto: {
            /** @example Globex Corporation */
            name: string;
            /**
             * @description Your own identifier, unique per data plane
             * @example crm-4711
             */
            external_id?: string | null;
            /**
             * @description Free-form JSON object
             * @example {
             *       "plan": "gold"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
        };
        CustomerResponseDto: {
            /**
             * Format: uuid
             * @description The X-Scope-Key value of this customer
             * @example 0194f1c2-0000-7000-8000-0000000000c1
             */
            id: string;
            /** @example Globex Corporation */
            name: string;
            /** @example crm-4711 */
            external_id: string | null;
            /**
             * @example {
             *       "plan": "gold"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        UpdateCustomerRequestDto: {
            /** @example Globex Corp. */
            name?: string;
            /**
             * @description null clears it
             * @example crm-4711
             */
            external_id?: string | null;
            /**
             * @description Replaces the stored metadata
             * @example {
             *       "plan": "platinum"
             *     }
             */
            metadata?: {
                [key: string]: unknown;
            };
        };
        WorkflowSettingsDto: {
            /**
             * @description An execution running longer ends timed_out (default RUN_DEFAULT_TIMEOUT_SECONDS, 3600)
             * @example 300
             */
            timeout_seconds?: number;
            /**
             * @description Finished executions older than this are pruned (default RUN_RETENTION_DAYS, 30)
             * @example 30
             */
            retention_days?: number;
        };
        WorkflowDefinitionDto: {
            /**
             * @example [
             *       {
             *         "id": "double",
             *         "type": "transform",
             *         "input": {
             *           "value": "{% input.x * 2 %}"
             *         }
             *       },
             *       {
             *         "id": "check",
             *         "type": "condition",
             *         "if": "{% steps.double.output.value > 10 %}",
             *         "then": [
             *           {
             *             "id": "notify",
             *             "type": "http.request",
             *             "input": {
             *               "method": "POST",
             *               "url": "https://hooks.example.com/big",
             *               "body": {
             *                 "value": "{% steps.double.output.value %}"
             *               }
             *             },
             *             "retry": {
             *               "max_attempts": 3
             *             }
             *           }
             *         ],
             *         "else": [
             *           {
             *             "id": "small",
             *             "type": "stop",
             *             "input": {
             *               "output": {
             *                 "small": true
             *               }
             *             }
             *           }
             *         ]
             *       }
             *     ]
             */
            steps: components["schemas"]["WorkflowStep"][];
            /**
             * @description JSON Schema of the run input (documentation for callers)
             * @example {
             *       "type": "object",
             *       "properties": {
             *         "x": {
             *           "type": "number"
             *         }
             *       }
             *     }
             */
            input_schema?: {
                [key: string]: unknown;
            };
            /**
             * @example {
             *       "timeout_seconds": 300,
             *       "retention_days": 30
             *     }
             */
            settings?: components["schemas"]["WorkflowSettingsDto"];
        };
        DefinitionProblemDto: {
            /**
             * @description The step the problem is in (null for the workflow as a whole)
             * @example notify
             */
            step_id: string | null;
            /**
             * @description JSON path from the definition root
             * @example steps[1].then[0].type
             */
            path: string;
            /** @example unknown step type 'htp.request' */
            message: string;
        };
        ValidateWorkflowResponseDto: {
            /** @example false */
            valid: boolean;
            problems: components["schemas"]["DefinitionProblemDto"][];
        };
        CreateWorkflowRequestDto: {
            /**
             * @example [
             *       {
             *         "id": "double",
             *         "type": "transform",
             *         "input": {
             *           "value": "{% input.x * 2 %}"
             *         }
             *       },
             *       {
             *         "id": "check",
             *         "type": "condition",
             *         "if": "{% steps.double.output.value > 10 %}",
             *         "then": [
             *           {
             *             "id": "notify",
             *             "type": "http.request",
             *             "input": {
             *               "method": "POST",
             *               "url": "https://hooks.example.com/big",
             *               "body": {
             *                 "value": "{% steps.double.output.value %}"
             *               }
             *             },
             *             "retry": {
             *               "max_attempts": 3
             *             }
             *           }
             *         ],
             *         "else": [
             *           {
             *             "id": "small",
             *             "type": "stop",
             *             "input": {
             *               "output": {
             *                 "small": true
             *               }
             *             }
             *           }
             *         ]
             *       }
             *     ]
             */
            steps: components["schemas"]["WorkflowStep"][];
            /**
             * @description JSON Schema of the run input (documentation for callers)
             * @example {
             *       "type": "object",
             *       "properties": {
             *         "x": {
             *           "type": "number"
             *         }
             *       }
             *     }
             */
            input_schema?: {
                [key: string]: unknown;
            };
            /**
             * @example {
             *       "timeout_seconds": 300,
             *       "retention_days": 30
             *     }
             */
            settings?: components["schemas"]["WorkflowSettingsDto"];
            /** @example Double and notify */
            name: string;
            /** @example Doubles x and posts big results */
            description?: string | null;
        };
        WorkflowResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f
             */
            id: string;
            /** @example Double and notify */
            name: string;
            /** @example Doubles x and posts big results */
            description: string | null;
            /**
             * @description Every PUT or PATCH makes a new immutable version
             * @example 1
             */
            version: number;
            /**
             * @example active
             * @enum {string}
             */
            status: "active" | "disabled";
            /**
             * @description JSON Schema of the run input
             * @example null
             */
            input_schema: {
                [key: string]: unknown;
            } | null;
            /**
             * @example [
             *       {
             *         "id": "double",
             *         "type": "transform",
             *         "input": {
             *           "value": "{% input.x * 2 %}"
             *         }
             *       },
             *       {
             *         "id": "check",
             *         "type": "condition",
             *         "if": "{% steps.double.output.value > 10 %}",
             *         "then": [
             *           {
             *             "id": "notify",
             *             "type": "http.request",
             *             "input": {
             *               "method": "POST",
             *               "url": "https://hooks.example.com/big",
             *               "body": {
             *                 "value": "{% steps.double.output.value %}"
             *               }
             *             },
             *             "retry": {
             *               "max_attempts": 3
             *             }
             *           }
             *         ],
             *         "else": [
             *           {
             *             "id": "small",
             *             "type": "stop",
             *             "input": {
             *               "output": {
             *                 "small": true
             *               }
             *             }
             *           }
             *         ]
             *       }
             *     ]
             */
            steps: components["schemas"]["WorkflowStep"][];
            /** @example {} */
            settings: components["schemas"]["WorkflowSettingsDto"];
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was made
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        PatchWorkflowRequestDto: {
            /** @example Renamed */
            name?: string;
            /**
             * @description null clears it
             * @example Doubles x and posts big results to the hook
             */
            description?: string | null;
            /**
             * @description A disabled workflow cannot be started
             * @example disabled
             * @enum {string}
             */
            status?: "active" | "disabled";
            /**
             * @example [
             *       {
             *         "id": "double",
             *         "type": "transform",
             *         "input": {
             *           "value": "{% input.x * 2 %}"
             *         }
             *       },
             *       {
             *         "id": "check",
             *         "type": "condition",
             *         "if": "{% steps.double.output.value > 10 %}",
             *         "then": [
             *           {
             *             "id": "notify",
             *             "type": "http.request",
             *             "input": {
             *               "method": "POST",
             *               "url": "https://hooks.example.com/big",
             *               "body": {
             *                 "value": "{% steps.double.output.value %}"
             *               }
             *             },
             *             "retry": {
             *               "max_attempts": 3
             *             }
             *           }
             *         ],
             *         "else": [
             *           {
             *             "id": "small",
             *             "type": "stop",
             *             "input": {
             *               "output": {
             *                 "small": true
             *               }
             *             }
             *           }
             *         ]
             *       }
             *     ]
             */
            steps?: components["schemas"]["WorkflowStep"][];
            /**
             * @description JSON Schema of the run input; null clears it
             * @example {
             *       "type": "object",
             *       "properties": {
             *         "x": {
             *           "type": "number"
             *         }
             *       }
             *     }
             */
            input_schema?: {
                [key: string]: unknown;
            } | null;
            /**
             * @example {
             *       "timeout_seconds": 600
             *     }
             */
            settings?: components["schemas"]["WorkflowSettingsDto"];
        };
        RunAutomationRequestDto: {
            /**
             * Format: uuid
             * @description The workflow to run
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            automation_id: string;
            /**
             * @description Free-form input; the workflow sees it as `input`
             * @example {
             *       "x": 21
             *     }
             */
            input?: {
                [key: string]: unknown;
            };
        };
        RunAcceptedResponseDto: {
            /**
             * Format: uuid
             * @description The execution id: poll GET /run/executions/{run_id}
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            run_id: string;
            /**
             * @description `queued` for a new run; for a repeated Idempotency-Key, the current status of the first run
             * @example queued
             * @enum {string}
             */
            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "timed_out";
        };
        ExecuteWorkflowRequestDto: {
            /**
             * @description Free-form input; the workflow sees it as `input`
             * @example {
             *       "x": 21
             *     }
             */
            input?: {
                [key: string]: unknown;
            };
        };
        ExecutionTriggerDto: {
            /**
             * @example api
             * @enum {string}
             */
            type: "api" | "schedule" | "event" | "webhook" | "portal" | "subworkflow";
            /**
             * @description The trigger, webhook or parent execution that started the run (null for API starts)
             * @example null
             */
            id: string | null;
        };
        ExecutionSummaryDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f
             */
            workflow_id: string;
            /**
             * @description The workflow version this execution runs
             * @example 1
             */
            workflow_version: number;
            /**
             * @example succeeded
             * @enum {string}
             */
            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "timed_out";
            /**
             * @example {
             *       "x": 21
             *     }
             */
            input: {
                [key: string]: unknown;
            };
            /**
             * @description The workflow's output once it succeeded
             * @example {
             *       "value": 42
             *     }
             */
            output: ({
                [key: string]: unknown;
            } | null) | (unknown[] | null) | (string | null) | (number | null) | (boolean | null);
            /** @description Why it failed, timed out or was cancelled */
            error?: {
                /**
                 * @description A stable code: expression_error, http_error, timeout, cancelled, …
                 * @example http_error
                 */
                code: string;
                /** @example POST https://hooks.example.com/big answered 502 */
                message: string;
                /**
                 * @description The step that failed (null for the execution as a whole)
                 * @example notify
                 */
                step_id: string | null;
            } | null;
            trigger: components["schemas"]["ExecutionTriggerDto"];
            /**
             * Format: uuid
             * @description The customer scope it runs in
             * @example null
             */
            customer_id: string | null;
            /**
             * Format: uuid
             * @description Set for a subworkflow run
             * @example null
             */
            parent_execution_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.010Z
             */
            started_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.020Z
             */
            finished_at: string | null;
            /**
             * Format: date-time
             * @description When a waiting execution (delay, retry back-off) resumes
             * @example null
             */
            wake_at: string | null;
        };
        ExecutionStepDto: {
            /**
             * @description The step id of the definition
             * @example double
             */
            id: string;
            /**
             * @description Where the step ran: inside loops and branches the path names the iteration (`each[2].fetch`)
             * @example double
             */
            path: string;
            /** @example transform */
            type: string;
            /**
             * @example succeeded
             * @enum {string}
             */
            status: "running" | "waiting" | "succeeded" | "failed" | "skipped" | "cancelled";
            /**
             * @description The attempt shown (the latest)
             * @example 1
             */
            attempt: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.011Z
             */
            started_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.012Z
             */
            finished_at: string | null;
            /**
             * @description The evaluated input (secrets redacted)
             * @example {
             *       "value": 42
             *     }
             */
            input: ({
                [key: string]: unknown;
            } | null) | (unknown[] | null) | (string | null) | (number | null) | (boolean | null);
            /**
             * @description What the step produced
             * @example {
             *       "value": 42
             *     }
             */
            output: ({
                [key: string]: unknown;
            } | null) | (unknown[] | null) | (string | null) | (number | null) | (boolean | null);
            /** @description Why the step failed */
            error?: {
                /**
                 * @description A stable code: expression_error, http_error, timeout, cancelled, …
                 * @example http_error
                 */
                code: string;
                /** @example POST https://hooks.example.com/big answered 502 */
                message: string;
                /**
                 * @description The step that failed (null for the execution as a whole)
                 * @example notify
                 */
                step_id: string | null;
            } | null;
        };
        ExecutionResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f
             */
            workflow_id: string;
            /**
             * @description The workflow version this execution runs
             * @example 1
             */
            workflow_version: number;
            /**
             * @example succeeded
             * @enum {string}
             */
            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "timed_out";
            /**
             * @example {
             *       "x": 21
             *     }
             */
            input: {
                [key: string]: unknown;
            };
            /**
             * @description The workflow's output once it succeeded
             * @example {
             *       "value": 42
             *     }
             */
            output: ({
                [key: string]: unknown;
            } | null) | (unknown[] | null) | (string | null) | (number | null) | (boolean | null);
            /** @description Why it failed, timed out or was cancelled */
            error?: {
                /**
                 * @description A stable code: expression_error, http_error, timeout, cancelled, …
                 * @example http_error
                 */
                code: string;
                /** @example POST https://hooks.example.com/big answered 502 */
                message: string;
                /**
                 * @description The step that failed (null for the execution as a whole)
                 * @example notify
                 */
                step_id: string | null;
            } | null;
            trigger: components["schemas"]["ExecutionTriggerDto"];
            /**
             * Format: uuid
             * @description The customer scope it runs in
             * @example null
             */
            customer_id: string | null;
            /**
             * Format: uuid
             * @description Set for a subworkflow run
             * @example null
             */
            parent_execution_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.010Z
             */
            started_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.020Z
             */
            finished_at: string | null;
            /**
             * Format: date-time
             * @description When a waiting execution (delay, retry back-off) resumes
             * @example null
             */
            wake_at: string | null;
            /** @description Each step path that ran, its latest attempt, in the order steps started */
            steps: components["schemas"]["ExecutionStepDto"][];
        };
        ExecutionLogDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8da0
             */
            id: string;
            /** @example double */
            step_id: string | null;
            /**
             * @example info
             * @enum {string}
             */
            level: "debug" | "info" | "warn" | "error";
            /** @example transform double succeeded */
            message: string;
            /**
             * @example {
             *       "attempt": 1,
             *       "ms": 1
             *     }
             */
            data: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.012Z
             */
            created_at: string;
        };
        WorkflowStep: {
            /** @description Unique within the workflow */
            id: string;
            /**
             * @description Action types (transform, http.request, code, data.query, data.insert, data.update, data.delete, file.read, file.write, notification) or control types (condition, switch, loop, parallel, delay, subworkflow, approval, form, fail, stop, set).
             * @example transform
             */
            type: string;
            /** @description Values or expressions; what the step type takes (e.g. http.request: method, url, headers, query, body, timeout_ms). */
            input?: {
                [key: string]: unknown;
            };
            retry?: {
                /** @default 1 */
                max_attempts: number;
                /**
                 * @description First delay; doubles each attempt, with jitter
                 * @default 1
                 */
                backoff_seconds: number;
                /** @default 60 */
                max_backoff_seconds: number;
                /** @description Error codes that retry (default: every retryable error) */
                retry_on?: string[];
            };
            timeout_seconds?: number;
            on_error?: ("fail" | "continue") | {
                /** @description A later step of the same list */
                goto: string;
            };
            /** @description condition: the test */
            if?: string;
            /** @description condition: steps when true */
            then?: components["schemas"]["WorkflowStep"][];
            /** @description condition: steps when false */
            else?: components["schemas"]["WorkflowStep"][];
            /** @description switch: the value compared with each case */
            value?: string;
            /** @description switch */
            cases?: {
                when?: unknown;
                steps?: components["schemas"]["WorkflowStep"][];
            }[];
            /** @description switch: steps when no case matches */
            default?: components["schemas"]["WorkflowStep"][];
            /** @description loop: the list iterated over */
            items?: string;
            /** @description loop: steps run for each item */
            steps?: components["schemas"]["WorkflowStep"][];
            /** @description loop: iterations at once */
            concurrency?: number;
            /** @description parallel: step lists run at once */
            branches?: components["schemas"]["WorkflowStep"][][];
        };
        TriggerResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01
             */
            id: string;
            /** @example nightly-report */
            name: string;
            /**
             * Format: uuid
             * @description The workflow each firing runs
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id: string;
            /**
             * @example schedule
             * @enum {string}
             */
            type: "schedule" | "event" | "webhook";
            /**
             * @example enabled
             * @enum {string}
             */
            status: "enabled" | "disabled";
            /**
             * @description The run input: a literal object, or a JSONata expression over the tick or event; null for none
             * @example {
             *       "report": "daily"
             *     }
             */
            input: ({
                [key: string]: unknown;
            } | null) | (string | null);
            /**
             * @description The schedule (schedule triggers; null for the others)
             * @example {
             *       "cron": "0 2 * * *",
             *       "interval_seconds": null,
             *       "timezone": "Europe/Paris",
             *       "start_at": null,
             *       "end_at": null,
             *       "misfire": "fire_once"
             *     }
             */
            schedule?: {
                /**
                 * @description The cron expression (null for an interval)
                 * @example 0 2 * * *
                 */
                cron: string | null;
                /**
                 * @description The interval (null for a cron expression)
                 * @example 3600
                 */
                interval_seconds: number | null;
                /** @example Europe/Paris */
                timezone: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T00:00:00.000Z
                 */
                start_at: string | null;
                /**
                 * Format: date-time
                 * @example 2026-12-31T23:59:59.000Z
                 */
                end_at: string | null;
                /**
                 * @example fire_once
                 * @enum {string}
                 */
                misfire: "fire_once" | "skip";
            } | null;
            /**
             * @description The platform event that fires it (event triggers; null for the others)
             * @example {
             *       "type": "run.execution.failed",
             *       "filter": null
             *     }
             */
            event?: {
                /**
                 * @example run.execution.failed
                 * @enum {string}
                 */
                type: "run.execution.succeeded" | "run.execution.failed" | "run.execution.cancelled" | "run.execution.timed_out" | "run.execution.started" | "storage.file.uploaded" | "task.task.created" | "task.task.assigned" | "task.task.completed" | "task.task.expired";
                /**
                 * @description JSONata over the event
                 * @example workflow_id = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e'
                 */
                filter: string | null;
            } | null;
            /**
             * Format: uuid
             * @description The webhook that fires it (webhook triggers; null for the others)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04
             */
            webhook_id: string | null;
            /**
             * Format: date-time
             * @description The next tick of an enabled schedule; null otherwise
             * @example 2026-11-23T01:00:00.000Z
             */
            next_fire_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        ScheduleDto: {
            /**
             * @description 5 fields, or 6 with seconds first; exactly one of cron and interval_seconds
             * @example *\/5 * * * *
             */
            cron?: string;
            /** @example 60 */
            interval_seconds?: number;
            /**
             * @default UTC
             * @example Europe/Paris
             */
            timezone: string;
            /**
             * Format: date-time
             * @description No tick before this time
             * @example 2026-11-22T00:00:00.000Z
             */
            start_at?: string;
            /**
             * Format: date-time
             * @description No tick after this time
             * @example 2026-12-31T23:59:59.000Z
             */
            end_at?: string;
            /**
             * @description Ticks missed while no replica ran: fire the latest once, or skip them
             * @default fire_once
             * @example fire_once
             * @enum {string}
             */
            misfire: "fire_once" | "skip";
        };
        EventDto: {
            /**
             * @example run.execution.failed
             * @enum {string}
             */
            type: "run.execution.succeeded" | "run.execution.failed" | "run.execution.cancelled" | "run.execution.timed_out" | "run.execution.started" | "storage.file.uploaded" | "task.task.created" | "task.task.assigned" | "task.task.completed" | "task.task.expired";
            /**
             * @description JSONata over the event; the trigger fires when it is true
             * @example workflow_id = '0194…'
             */
            filter?: string;
        };
        CreateTriggerRequestDto: {
            /**
             * @description The run input: a literal object, or a JSONata expression (string) over the firing: `{ trigger, scheduled_for, fired_at }` for a tick, `{ trigger, event }` for an event, `{ trigger, request }` for a webhook delivery (no input: a webhook trigger gets the request itself)
             * @example {
             *       "report": "daily"
             *     }
             */
            input?: {
                [key: string]: unknown;
            } | string;
            /**
             * @description Schedule triggers: when to fire
             * @example {
             *       "cron": "0 2 * * *",
             *       "timezone": "Europe/Paris"
             *     }
             */
            schedule?: components["schemas"]["ScheduleDto"];
            /**
             * @description Event triggers: the platform event that fires it
             * @example {
             *       "type": "run.execution.failed"
             *     }
             */
            event?: components["schemas"]["EventDto"];
            /**
             * Format: uuid
             * @description Webhook triggers: the caller's webhook whose accepted deliveries fire it (an unknown or foreign id is a 400)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04
             */
            webhook_id?: string;
            /**
             * @default true
             * @example true
             */
            enabled: boolean;
            /** @example nightly-report */
            name: string;
            /**
             * Format: uuid
             * @description The workflow each firing runs: the caller's (an unknown or another tenant's id is a 400 naming workflow_id)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id: string;
            /**
             * @example schedule
             * @enum {string}
             */
            type: "schedule" | "event" | "webhook";
        };
        UpdateTriggerRequestDto: {
            /**
             * @description The run input: a literal object, or a JSONata expression (string) over the firing: `{ trigger, scheduled_for, fired_at }` for a tick, `{ trigger, event }` for an event, `{ trigger, request }` for a webhook delivery (no input: a webhook trigger gets the request itself)
             * @example {
             *       "report": "daily"
             *     }
             */
            input?: {
                [key: string]: unknown;
            } | string;
            /**
             * @description Schedule triggers: when to fire
             * @example {
             *       "cron": "0 2 * * *",
             *       "timezone": "Europe/Paris"
             *     }
             */
            schedule?: components["schemas"]["ScheduleDto"];
            /**
             * @description Event triggers: the platform event that fires it
             * @example {
             *       "type": "run.execution.failed"
             *     }
             */
            event?: components["schemas"]["EventDto"];
            /**
             * Format: uuid
             * @description Webhook triggers: the caller's webhook whose accepted deliveries fire it (an unknown or foreign id is a 400)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04
             */
            webhook_id?: string;
            /**
             * @default true
             * @example true
             */
            enabled: boolean;
            /** @example nightly-report */
            name?: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id?: string;
        };
        TriggerExecutionResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e02
             */
            id: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01
             */
            trigger_id: string;
            /**
             * Format: date-time
             * @description The tick (or event time) it fired for
             * @example 2026-11-22T01:00:00.000Z
             */
            scheduled_for: string;
            /**
             * Format: date-time
             * @example 2026-11-22T01:00:00.120Z
             */
            fired_at: string;
            /**
             * Format: uuid
             * @description The run it started (null when none was started)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03
             */
            run_id: string | null;
            /**
             * @example started
             * @enum {string}
             */
            status: "pending" | "started" | "skipped" | "failed";
            /**
             * @description Why it was skipped or failed
             * @example workflow is disabled
             */
            error: string | null;
        };
        PublicTaskResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10
             */
            task_id: string;
            /**
             * @example approval
             * @enum {string}
             */
            type: "approval" | "form";
            /** @example Approve the refund of order 4711? */
            title: string;
            /** @example The customer asks for a full refund. */
            description: string | null;
            /**
             * @description JSON Schema of the data to collect
             * @example {
             *       "type": "object",
             *       "required": [
             *         "amount"
             *       ],
             *       "properties": {
             *         "amount": {
             *           "type": "number",
             *           "minimum": 0,
             *           "title": "Amount (EUR)"
             *         },
             *         "comment": {
             *           "type": "string",
             *           "ui:widget": "textarea"
             *         }
             *       }
             *     }
             */
            form: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The values the step chose to show
             * @example {
             *       "order": 4711,
             *       "amount": 1200
             *     }
             */
            context: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The decisions this link may make
             * @example [
             *       "approve",
             *       "reject"
             *     ]
             */
            decisions: ("approve" | "reject" | "submit")[];
            /**
             * Format: date-time
             * @description When the link stops working
             * @example 2026-11-30T10:00:00.000Z
             */
            expires_at: string;
        };
        CompleteTaskRequestDto: {
            /**
             * @description approve or reject for an approval; submit or reject for a form (the task lists its own in `decisions`)
             * @example approve
             * @enum {string}
             */
            decision: "approve" | "reject" | "submit";
            /**
             * @description The data collected, validated against the task's form (JSON Schema) unless the decision is reject
             * @example {
             *       "amount": 1200,
             *       "comment": "Within budget"
             *     }
             */
            data?: {
                [key: string]: unknown;
            };
        };
        PublicTaskDecidedResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10
             */
            task_id: string;
            /**
             * @example completed
             * @enum {string}
             */
            status: "completed";
            /**
             * @example approve
             * @enum {string}
             */
            decision: "approve" | "reject" | "submit";
            /**
             * @example {
             *       "comment": "ok"
             *     }
             */
            data?: ({
                [key: string]: unknown;
            } | null) | (unknown[] | null) | (string | null) | (number | null) | (boolean | null);
        };
        TaskResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10
             */
            id: string;
            /**
             * @description The step type that made the task
             * @example approval
             * @enum {string}
             */
            type: "approval" | "form";
            /**
             * @description pending, completed, expired (deadline passed) or cancelled (its execution ended)
             * @example pending
             * @enum {string}
             */
            status: "pending" | "completed" | "expired" | "cancelled";
            /** @example Approve the refund of order 4711? */
            title: string;
            /** @example The customer asks for a full refund. */
            description: string | null;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id: string;
            /**
             * @description The name of the workflow when the task was made
             * @example refunds
             */
            workflow_name: string;
            /**
             * Format: uuid
             * @description The execution waiting on the task
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03
             */
            execution_id: string;
            /**
             * @description The id of the approval or form step
             * @example approve
             */
            step_id: string;
            /**
             * @description The step path in the execution (`loop/2/approve` inside a loop)
             * @example approve
             */
            step_path: string;
            /**
             * @description Exactly one of user_id, team_id, customer_id
             * @example {
             *       "team_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02"
             *     }
             */
            assignee: {
                /** Format: uuid */
                user_id?: string;
                /** Format: uuid */
                team_id?: string;
                /** Format: uuid */
                customer_id?: string;
            } | null;
            /**
             * Format: uuid
             * @description The customer (execution scope) the task belongs to
             * @example null
             */
            customer_id: string | null;
            /**
             * @description JSON Schema of the data to collect, with UI hints
             * @example {
             *       "type": "object",
             *       "required": [
             *         "amount"
             *       ],
             *       "properties": {
             *         "amount": {
             *           "type": "number",
             *           "minimum": 0,
             *           "title": "Amount (EUR)"
             *         },
             *         "comment": {
             *           "type": "string",
             *           "ui:widget": "textarea"
             *         }
             *       }
             *     }
             */
            form: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The values the step chose to show
             * @example {
             *       "order": 4711,
             *       "amount": 1200
             *     }
             */
            context: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The decisions this task takes
             * @example [
             *       "approve",
             *       "reject"
             *     ]
             */
            decisions: ("approve" | "reject" | "submit")[];
            /**
             * Format: date-time
             * @example 2026-11-24T10:00:00.000Z
             */
            due_at: string | null;
            /**
             * @description What happens at the deadline: "reject", "fail", or { escalate_to, extend_seconds } (once; the next deadline rejects); null without a deadline
             * @example reject
             */
            on_expiry: ("reject" | "fail" | null) | ({
                /** @description Exactly one of user_id, team_id, customer_id */
                escalate_to: {
                    /** Format: uuid */
                    user_id?: string;
                    /** Format: uuid */
                    team_id?: string;
                    /** Format: uuid */
                    customer_id?: string;
                } | null;
                extend_seconds: number;
            } | null);
            /**
             * @description Whether the deadline already escalated the task (reassigned and extended)
             * @example false
             */
            escalated: boolean;
            /**
             * @description The decision made, null while pending (reject for a task expired with the reject policy)
             * @example approve
             * @enum {string|null}
             */
            decision: "approve" | "reject" | "submit" | null;
            /**
             * @description The data submitted with the decision
             * @example null
             */
            data: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Who decided: a user id, `api_key:<key id>` or `link:<link id>`
             * @example null
             */
            completed_by: string | null;
            /**
             * Format: date-time
             * @example null
             */
            completed_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-23T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-23T10:00:00.000Z
             */
            updated_at: string;
        };
        AssignTaskRequestDto: {
            /**
             * Format: uuid
             * @description A user of the tenant (give user_id or team_id)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01
             */
            user_id?: string;
            /**
             * Format: uuid
             * @description A team of the tenant (give user_id or team_id)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02
             */
            team_id?: string;
        };
        CreateTaskLinkRequestDto: {
            /**
             * @description The decisions the link may make (default: every decision of the task); a subset of the task's
             * @example [
             *       "approve",
             *       "reject"
             *     ]
             */
            decisions?: ("approve" | "reject" | "submit")[];
            /**
             * @description Lifetime of the link (default 7 days, at most 30)
             * @example 86400
             */
            expires_in_seconds?: number;
        };
        TaskLinkResponseDto: {
            /**
             * @description The public path on the gateway: GET shows the task, POST decides it once
             * @example /tasks/public/eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA
             */
            url: string;
            /**
             * @description The signed token in the url
             * @example eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA
             */
            token: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10
             */
            task_id: string;
            /**
             * @description The decisions the link may make
             * @example [
             *       "approve",
             *       "reject"
             *     ]
             */
            decisions: ("approve" | "reject" | "submit")[];
            /**
             * Format: date-time
             * @example 2026-11-30T10:00:00.000Z
             */
            expires_at: string;
        };
        DeliveryReceivedResponseDto: {
            /**
             * Format: uuid
             * @description The run the delivery starts: poll GET /run/executions/{run_id} (404 for the moment until the run service has taken it; a burst or a run-service outage queues it). Null when the run service refused the start (workflow disabled or deleted)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03
             */
            run_id: string | null;
            /**
             * Format: uuid
             * @description The stored delivery (GET /webhooks/{id}/logs)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e05
             */
            delivery_id: string;
            /**
             * @description A repeated webhook-id (or Idempotency-Key): the first delivery and its run
             * @example true
             */
            duplicate?: boolean;
            /**
             * @description sync mode: the run status when it finished in time, `running` when it did not
             * @example succeeded
             * @enum {string}
             */
            status?: "running" | "succeeded" | "failed" | "cancelled" | "timed_out";
            /**
             * @description sync mode: the finished run's output (any JSON; null when it failed or did not finish in time)
             * @example {
             *       "got": {
             *         "order": 42
             *       }
             *     }
             */
            output?: ({
                [key: string]: unknown;
            } | null) | (unknown[] | null) | (string | null) | (number | null) | (boolean | null);
            /**
             * @description sync mode: why the run failed
             * @example {
             *       "code": "http_error",
             *       "message": "POST https://hooks.example.com/big answered 502",
             *       "step_id": "notify"
             *     }
             */
            error?: {
                /** @example http_error */
                code?: string;
                /** @example POST https://hooks.example.com/big answered 502 */
                message?: string;
                /** @example notify */
                step_id?: string | null;
            } | null;
        };
        WebhookVerificationResponseDto: {
            /**
             * @description hmac: Standard Webhooks signatures; token: a static secret in a header; none
             * @example hmac
             * @enum {string}
             */
            type: "hmac" | "token" | "none";
            /**
             * @description The header carrying the token (type token only)
             * @example X-Webhook-Token
             */
            header?: string;
        };
        WebhookResponseModeDto: {
            /**
             * @description async: 202 at once; sync: wait for the run (up to timeout_ms)
             * @example async
             * @enum {string}
             */
            mode: "async" | "sync";
            /**
             * @description sync only: how long to wait for the run
             * @example 10000
             */
            timeout_ms?: number;
        };
        WebhookResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04
             */
            id: string;
            /** @example stripe-events */
            name: string;
            /**
             * Format: uuid
             * @description The workflow each accepted delivery runs
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id: string;
            /**
             * @description The public receiving path, on the gateway
             * @example /webhooks/in/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04
             */
            url: string;
            /**
             * @example {
             *       "type": "hmac"
             *     }
             */
            verification: components["schemas"]["WebhookVerificationResponseDto"];
            /**
             * @example {
             *       "mode": "async"
             *     }
             */
            response: components["schemas"]["WebhookResponseModeDto"];
            /** @example true */
            enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
            /**
             * @description The signing secret (hmac, `whsec_…`) or token: only in the answer that made it (create, rotate, a change of verification type); store it now
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3J8N7WzqD1A=
             */
            secret?: string;
        };
        VerificationDto: {
            /**
             * @description hmac: Standard Webhooks signatures; token: a static secret in a header; none
             * @example hmac
             * @enum {string}
             */
            type: "hmac" | "token" | "none";
            /**
             * @description The header carrying the token (type token only)
             * @example X-Webhook-Token
             */
            header?: string;
        };
        ResponseDto: {
            /**
             * @example async
             * @enum {string}
             */
            mode: "async" | "sync";
            /**
             * @description sync only: how long to wait for the run
             * @example 10000
             */
            timeout_ms?: number;
        };
        CreateWebhookRequestDto: {
            /** @example stripe-events */
            name: string;
            /**
             * Format: uuid
             * @description The workflow each accepted delivery runs: the caller's (an unknown or another tenant's id is a 400 naming workflow_id)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id: string;
            /**
             * @example {
             *       "type": "hmac"
             *     }
             */
            verification: components["schemas"]["VerificationDto"];
            /**
             * @description Default { mode: "async" }
             * @example {
             *       "mode": "async"
             *     }
             */
            response?: components["schemas"]["ResponseDto"];
            /**
             * @default true
             * @example true
             */
            enabled: boolean;
        };
        UpdateWebhookRequestDto: {
            /** @example stripe-events */
            name?: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            workflow_id?: string;
            /**
             * @description Changing the type to hmac or token makes a new secret, returned once
             * @example {
             *       "type": "token",
             *       "header": "X-Webhook-Token"
             *     }
             */
            verification?: components["schemas"]["VerificationDto"];
            /**
             * @example {
             *       "mode": "sync",
             *       "timeout_ms": 10000
             *     }
             */
            response?: components["schemas"]["ResponseDto"];
            /**
             * @description A disabled webhook answers 404 to deliveries
             * @example false
             */
            enabled?: boolean;
        };
        DeliveryResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e05
             */
            id: string;
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04
             */
            webhook_id: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            received_at: string;
            /** @example POST */
            method: string;
            /**
             * @description The request headers; credentials, the signature and the token header are masked (`***`)
             * @example {
             *       "content-type": "application/json",
             *       "webhook-id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
             *       "webhook-timestamp": "1795341600",
             *       "webhook-signature": "***"
             *     }
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description The body as sent (UTF-8), its first 64 KiB
             * @example {"type":"invoice.paid","amount":4200}
             */
            body: string;
            /**
             * @description Whether the body was longer than the 64 KiB shown
             * @example false
             */
            body_truncated: boolean;
            /** @example application/json */
            content_type: string | null;
            /**
             * @description accepted (a run was or will be started), duplicate (a repeated webhook-id), rejected (signature or token failed)
             * @example accepted
             * @enum {string}
             */
            outcome: "accepted" | "duplicate" | "rejected";
            /**
             * @description Why it was rejected, or why its run could not be started
             * @example signature does not match
             */
            reason: string | null;
            /**
             * @description The status the sender was answered
             * @example 202
             */
            status_code: number;
            /**
             * Format: uuid
             * @description The run it started (null when none was started)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03
             */
            run_id: string | null;
            /**
             * Format: uuid
             * @description The delivery this one replays
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e07
             */
            replay_of: string | null;
        };
        DeliveryReplayedResponseDto: {
            /**
             * Format: uuid
             * @description The new run (it may take a moment to appear when the run service is busy or down; null when the run service refused it)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03
             */
            run_id: string | null;
            /**
             * Format: uuid
             * @description The new delivery, a copy of the replayed one
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e06
             */
            delivery_id: string;
            /**
             * Format: uuid
             * @description The delivery replayed
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e05
             */
            replay_of: string;
        };
        FileResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /** @example invoice-2026-11.pdf */
            name: string;
            /**
             * @description Bytes
             * @example 48213
             */
            size: number;
            /**
             * @description Sniffed from the content at upload
             * @example application/pdf
             */
            content_type: string;
            /**
             * @description What the upload's part header said
             * @example application/pdf
             */
            declared_content_type: string | null;
            /**
             * @description SHA-256 of the content, hex (also the ETag of downloads)
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            checksum_sha256: string;
            /**
             * @example {
             *       "customer": "crm-4711"
             *     }
             */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: uuid
             * @description The customer scope it belongs to
             * @example null
             */
            customer_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
        };
        VerifyFileResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /** @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 */
            checksum_sha256: string;
            /**
             * @description The stored content still has the checksum recorded at upload
             * @example true
             */
            valid: boolean;
        };
        ResourceResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e
             */
            id: string;
            /** @example orders-db */
            name: string;
            /** @example postgres */
            type: string;
            /**
             * @example {
             *       "host": "db.internal",
             *       "port": 5432,
             *       "database": "orders",
             *       "password_secret": "ORDERS_DB_PASSWORD"
             *     }
             */
            config: {
                [key: string]: unknown;
            };
            /** @example Orders database, read replica */
            description: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        ResourceRequestDto: {
            /**
             * @description Unique per tenant and environment
             * @example orders-db
             */
            name: string;
            /**
             * @description Free text: what kind of resource this is
             * @example postgres
             */
            type: string;
            /**
             * @description A JSON object, up to 65536 bytes
             * @example {
             *       "host": "db.internal",
             *       "port": 5432,
             *       "database": "orders"
             *     }
             */
            config: Record<string, never>;
            /** @example Orders database, read replica */
            description?: string | null;
        };
        PatchResourceRequestDto: {
            /** @example orders-db-replica */
            name?: string;
            /** @example postgres */
            type?: string;
            /**
             * @description Merged into the stored config at the top level; null removes a key
             * @example {
             *       "port": 6432,
             *       "database": null
             *     }
             */
            config?: Record<string, never>;
            /**
             * @description null clears it
             * @example Orders database (pgbouncer)
             */
            description?: string | null;
        };
        CreateSecretRequestDto: {
            /**
             * @description Unique in the environment.
             * @example STRIPE_API_KEY
             */
            name: string;
            /**
             * @description 1 byte to 65536 bytes (UTF-8). Stored encrypted; never returned by any route.
             * @example sk_live_…
             */
            value: string;
            /** @example Stripe key used by the billing workflows */
            description?: string | null;
        };
        SecretResponseDto: {
            /** @example STRIPE_API_KEY */
            name: string;
            /** @example Stripe key used by the billing workflows */
            description: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description Last time a workflow run or connection read the value.
             * @example null
             */
            last_read_at: string | null;
        };
        ReplaceSecretRequestDto: {
            /**
             * @description The new value, 1 byte to 65536 bytes (UTF-8).
             * @example sk_live_…
             */
            value: string;
            /**
             * @description Omitted: unchanged; null: cleared.
             * @example Stripe key (rotated 2026-11)
             */
            description?: string | null;
        };
        ColumnDefinitionDto: {
            /** @example amount */
            name: string;
            /**
             * @description number is a 64-bit float (a JSON number); timestamp is ISO 8601 with a time zone (UTC when none is given); json is any JSON value.
             * @example number
             * @enum {string}
             */
            type: "text" | "number" | "boolean" | "timestamp" | "json";
            /** @default true */
            nullable: boolean;
            /**
             * @description No two rows of the environment share a value (409 otherwise).
             * @default false
             */
            unique: boolean;
        };
        CreateDataTableRequestDto: {
            /**
             * @description Unique in the environment; not an SQL keyword nor workflows, executions, tasks.
             * @example orders
             */
            name: string;
            /**
             * @example [
             *       {
             *         "name": "customer",
             *         "type": "text",
             *         "nullable": false
             *       },
             *       {
             *         "name": "amount",
             *         "type": "number"
             *       },
             *       {
             *         "name": "status",
             *         "type": "text"
             *       },
             *       {
             *         "name": "paid_at",
             *         "type": "timestamp"
             *       },
             *       {
             *         "name": "reference",
             *         "type": "text",
             *         "unique": true
             *       }
             *     ]
             */
            columns: components["schemas"]["ColumnDefinitionDto"][];
            /**
             * @description Up to 16 indexes of 1 to 8 columns (own columns, id, created_at, updated_at).
             * @example [
             *       [
             *         "status",
             *         "paid_at"
             *       ]
             *     ]
             */
            indexes?: string[][];
        };
        ColumnResponseDto: {
            /** @example amount */
            name: string;
            /**
             * @example number
             * @enum {string}
             */
            type: "text" | "number" | "boolean" | "timestamp" | "json";
            /** @example true */
            nullable: boolean;
            /** @example false */
            unique: boolean;
        };
        DataTableResponseDto: {
            /** @example orders */
            name: string;
            columns: components["schemas"]["ColumnResponseDto"][];
            /**
             * @example [
             *       [
             *         "status",
             *         "paid_at"
             *       ]
             *     ]
             */
            indexes: string[][];
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        DataQueryRequestDto: {
            /**
             * @description One SELECT over your data tables (by name) and the views workflows, executions, tasks. Joins, aggregates, CTEs and window functions are welcome.
             * @example select status, count(*) as orders, sum(amount) as total from orders where paid_at >= $1 group by status order by total desc
             */
            query: string;
            /**
             * @description Values of $1…$n, bound, never interpolated.
             * @example [
             *       "2026-11-01T00:00:00Z"
             *     ]
             */
            params?: unknown[];
        };
        AdHocDestinationDto: {
            /**
             * @example slack
             * @enum {string}
             */
            kind: "slack" | "teams";
            /**
             * @description The incoming webhook (or Teams Workflows) URL; sealed at rest, never returned
             * @example https://hooks.slack.com/services/T000/B000/XXXXXXXX
             */
            to: string;
        };
        SendNotificationRequestDto: {
            /**
             * Format: uuid
             * @description The channel to send through (or `destination`)
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01
             */
            channel_id?: string;
            /** @description A Slack or Teams URL instead of a channel */
            destination?: components["schemas"]["AdHocDestinationDto"];
            /**
             * @description email channels: the recipients (default: the channel's `to`)
             * @example [
             *       "ops@example.com"
             *     ]
             */
            to?: string[];
            /**
             * @description Subject (email) or title (Slack, Teams); a Mustache template
             * @example Deploy {{version}} finished
             */
            subject?: string;
            /**
             * @description Markdown; a Mustache template over `variables` (`{{x}}` shows the value literally, `{{{x}}}` inserts it as Markdown). Required unless `template` is given.
             * @example Version **{{version}}** is live. [Release notes]({{{notes_url}}})
             */
            body?: string;
            /**
             * @description A built-in template giving the subject and body (a send's own `subject` or `body` replaces the template's)
             * @example execution_failed
             * @enum {string}
             */
            template?: "execution_failed" | "task_created" | "task_assigned" | "api_key_expiring";
            /**
             * @description Values for the templates
             * @example {
             *       "version": "1.4.2",
             *       "notes_url": "https://example.com/notes"
             *     }
             */
            variables?: {
                [key: string]: unknown;
            };
            /**
             * @description The same key (per environment) sends once: a repeat answers the first notification (409 with another body)
             * @example deploy-1.4.2
             */
            idempotency_key?: string;
        };
        NotificationQueuedResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10
             */
            id: string;
            /**
             * @description queued when accepted; a repeated idempotency key answers the current status
             * @example queued
             * @enum {string}
             */
            status: "queued" | "sending" | "retrying" | "delivered" | "failed" | "rate_limited";
        };
        AttemptResponseDto: {
            /** @example 1 */
            attempt: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.120Z
             */
            at: string;
            /**
             * @description retry: a transient failure, tried again at retry_at
             * @example retry
             * @enum {string}
             */
            outcome: "delivered" | "retry" | "failed" | "rate_limited";
            /**
             * @description HTTP status or SMTP reply code
             * @example 429
             */
            status_code: number | null;
            /** @example HTTP 429: rate_limited */
            error: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:02.120Z
             */
            retry_at?: string | null;
        };
        NotificationResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10
             */
            id: string;
            /**
             * @example delivered
             * @enum {string}
             */
            status: "queued" | "sending" | "retrying" | "delivered" | "failed" | "rate_limited";
            /**
             * @example slack
             * @enum {string}
             */
            kind: "email" | "slack" | "teams";
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01
             */
            channel_id: string | null;
            /**
             * @description Who sent it: the API, a workflow step, or the platform (alerts)
             * @example api
             * @enum {string}
             */
            source: "api" | "workflow" | "platform";
            /**
             * @description email: the recipients
             * @example null
             */
            to: string[] | null;
            /** @example Deploy 1.4.2 finished */
            subject: string | null;
            /** @example null */
            template: string | null;
            /** @example deploy-1.4.2 */
            idempotency_key: string | null;
            /**
             * Format: uuid
             * @example null
             */
            customer_id: string | null;
            /**
             * @description Every attempt, oldest first
             * @example [
             *       {
             *         "attempt": 1,
             *         "at": "2026-11-22T10:00:00.120Z",
             *         "outcome": "retry",
             *         "status_code": 429,
             *         "error": "HTTP 429: rate_limited",
             *         "retry_at": "2026-11-22T10:00:02.120Z"
             *       },
             *       {
             *         "attempt": 2,
             *         "at": "2026-11-22T10:00:02.200Z",
             *         "outcome": "delivered",
             *         "status_code": 200,
             *         "error": null
             *       }
             *     ]
             */
            attempts: components["schemas"]["AttemptResponseDto"][];
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.100Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:02.200Z
             */
            updated_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:02.200Z
             */
            delivered_at: string | null;
        };
        EmailSettingsResponseDto: {
            /** @example smtp.example.com */
            host: string;
            /** @example 587 */
            port: number;
            /**
             * @example starttls
             * @enum {string}
             */
            security: "tls" | "starttls";
            /** @example notifications@example.com */
            username: string | null;
            /** @example Acme Alerts <alerts@example.com> */
            from: string;
            /** @example support@example.com */
            reply_to: string | null;
            /**
             * @description Default recipients
             * @example [
             *       "ops@example.com"
             *     ]
             */
            to: string[];
            /**
             * @description Whether a certificate to trust is configured
             * @example false
             */
            ca: boolean;
        };
        SlackSettingsResponseDto: {
            /**
             * @description webhook: an incoming webhook URL; bot: a bot token with a channel
             * @example webhook
             * @enum {string}
             */
            mode: "webhook" | "bot";
            /** @example #alerts */
            channel: string | null;
        };
        TeamsSettingsResponseDto: Record<string, never>;
        ChannelResponseDto: {
            /**
             * Format: uuid
             * @example 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01
             */
            id: string;
            /** @example ops-alerts */
            name: string;
            /**
             * @example slack
             * @enum {string}
             */
            kind: "email" | "slack" | "teams";
            /**
             * @description email channels
             * @example {
             *       "host": "smtp.example.com",
             *       "port": 587,
             *       "security": "starttls",
             *       "username": "notifications@example.com",
             *       "from": "Acme Alerts <alerts@example.com>",
             *       "reply_to": null,
             *       "to": [
             *         "ops@example.com"
             *       ],
             *       "ca": false
             *     }
             */
            email?: components["schemas"]["EmailSettingsResponseDto"];
            /**
             * @description slack channels
             * @example {
             *       "mode": "webhook",
             *       "channel": null
             *     }
             */
            slack?: components["schemas"]["SlackSettingsResponseDto"];
            /**
             * @description teams channels (the URL is write-only)
             * @example {}
             */
            teams?: components["schemas"]["TeamsSettingsResponseDto"];
            /**
             * @description The write-only settings that are set; their values are never returned
             * @example [
             *       "webhook_url"
             *     ]
             */
            secrets: string[];
            /** @example true */
            enabled: boolean;
            /**
             * Format: uuid
             * @description The customer owning the channel (customer keys)
             * @example null
             */
            customer_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        EmailSettingsDto: {
            /**
             * @description SMTP server host name
             * @example smtp.example.com
             */
            host: string;
            /**
             * @description 465 for implicit TLS, 587 for STARTTLS
             * @example 587
             */
            port: number;
            /**
             * @description tls: TLS from the first byte; starttls: upgrade required (a server that does not offer it is refused)
             * @example starttls
             * @enum {string}
             */
            security: "tls" | "starttls";
            /**
             * @description SMTP login user
             * @example notifications@example.com
             */
            username?: string;
            /**
             * @description SMTP login password; write-only, never returned
             * @example app-password-123
             */
            password?: string;
            /**
             * @description The From header
             * @example Acme Alerts <alerts@example.com>
             */
            from: string;
            /**
             * @description The Reply-To header
             * @example support@example.com
             */
            reply_to?: string;
            /**
             * @description Default recipients when a send names none
             * @example [
             *       "ops@example.com"
             *     ]
             */
            to?: string[];
            /**
             * @description A PEM certificate to trust for this server (a private CA or a self-signed relay); the server's certificate is always verified
             * @example -----BEGIN CERTIFICATE-----
             *     MIIB...
             *     -----END CERTIFICATE-----
             */
            ca?: string;
        };
        SlackSettingsDto: {
            /**
             * @description Incoming webhook URL (write-only: it is the credential)
             * @example https://hooks.slack.com/services/T000/B000/XXXXXXXX
             */
            webhook_url?: string;
            /**
             * @description Bot token for chat.postMessage (write-only)
             * @example xoxb-1234-5678-abcdef
             */
            bot_token?: string;
            /**
             * @description Channel name or id for the bot token
             * @example #alerts
             */
            channel?: string;
        };
        TeamsSettingsDto: {
            /**
             * @description Incoming webhook or Workflows URL (write-only: it is the credential)
             * @example https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=xyz
             */
            webhook_url: string;
        };
        CreateChannelRequestDto: {
            /** @example ops-alerts */
            name: string;
            /**
             * @description Which settings object the channel takes: `email`, `slack` or `teams`
             * @example slack
             * @enum {string}
             */
            kind: "email" | "slack" | "teams";
            /** @description Required when kind is email */
            email?: components["schemas"]["EmailSettingsDto"];
            /**
             * @description Required when kind is slack
             * @example {
             *       "webhook_url": "https://hooks.slack.com/services/T000/B000/XXXXXXXX"
             *     }
             */
            slack?: components["schemas"]["SlackSettingsDto"];
            /** @description Required when kind is teams */
            teams?: components["schemas"]["TeamsSettingsDto"];
            /**
             * @description A disabled channel refuses sends (400)
             * @default true
             * @example true
             */
            enabled: boolean;
        };
        UpdateChannelRequestDto: {
            /** @example ops-alerts */
            name?: string;
            /** @description email channels only */
            email?: components["schemas"]["EmailSettingsDto"];
            /**
             * @description slack channels only
             * @example {
             *       "bot_token": "xoxb-1234-5678-abcdef",
             *       "channel": "#alerts"
             *     }
             */
            slack?: components["schemas"]["SlackSettingsDto"];
            /** @description teams channels only */
            teams?: components["schemas"]["TeamsSettingsDto"];
            /** @example false */
            enabled?: boolean;
        };
        TestChannelRequestDto: {
            /**
             * @description email channels: recipients of the test message (default: the channel's `to`)
             * @example [
             *       "me@example.com"
             *     ]
             */
            to?: string[];
        };
        ChannelTestResponseDto: {
            /**
             * @description Whether the test message was accepted by the remote side
             * @example true
             */
            ok: boolean;
            /**
             * @description HTTP status (Slack, Teams) or SMTP reply code (email)
             * @example 200
             */
            status_code: number | null;
            /**
             * @description Why it failed
             * @example null
             */
            error: string | null;
            /** @example 182 */
            duration_ms: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    account_apiKeys_scopes: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            scope: string;
                            description: string;
                        }[];
                    };
                };
            };
            /** @description With a JWT: X-SELECTED-TENANT header is required */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The data plane */
                dataPlaneId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequestDto"];
            };
        };
        responses: {
            /** @description The key record and its value, shown once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": null,
                     *       "rotated_at": null,
                     *       "replaced_by": null,
                     *       "key": "sv_live_…"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Keys of this data plane only */
                data_plane_id?: string;
                /** @description Keys in this status only */
                status?: "active" | "revoked" | "expired" | "rotated";
                /** @description Keys of this type only */
                type?: "tenant" | "customer";
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of key records */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKeyResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_createInAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAccountApiKeyRequestDto"];
            };
        };
        responses: {
            /** @description The key record and its value, shown once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": null,
                     *       "rotated_at": null,
                     *       "replaced_by": null,
                     *       "key": "sv_live_…"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_list_apiV1: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Keys of this data plane only */
                data_plane_id?: string;
                /** @description Keys in this status only */
                status?: "active" | "revoked" | "expired" | "rotated";
                /** @description Keys of this type only */
                type?: "tenant" | "customer";
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of key records */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKeyResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_get_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": null,
                     *       "rotated_at": null,
                     *       "replaced_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": null,
                     *       "rotated_at": null,
                     *       "replaced_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_rotate_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateApiKeyRequestDto"];
            };
        };
        responses: {
            /** @description The new key record and its value, shown once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": null,
                     *       "rotated_at": null,
                     *       "replaced_by": null,
                     *       "key": "sv_live_…"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is revoked; only an active key can be rotated or revoked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_rotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateApiKeyRequestDto"];
            };
        };
        responses: {
            /** @description The new key record and its value, shown once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": null,
                     *       "rotated_at": null,
                     *       "replaced_by": null,
                     *       "key": "sv_live_…"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is revoked; only an active key can be rotated or revoked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_revoke_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "revoked",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": "2026-11-22T11:00:00.000Z",
                     *       "rotated_at": null,
                     *       "replaced_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is revoked; only an active key can be rotated or revoked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_apiKeys_revoke: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "ci-deployer",
                     *       "type": "tenant",
                     *       "mode": "live",
                     *       "data_plane_id": "0194f1c2-0000-7000-8000-000000000001",
                     *       "customer_id": null,
                     *       "scopes": [
                     *         "automations:run",
                     *         "data:read"
                     *       ],
                     *       "prefix": "sv_live_AbC1",
                     *       "status": "revoked",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": null,
                     *       "revoked_at": "2026-11-22T11:00:00.000Z",
                     *       "rotated_at": null,
                     *       "replaced_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `api_keys:manage` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is revoked; only an active key can be rotated or revoked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_audit_logs: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Uses of keys with this name only */
                key_name?: string;
                /** @description Exact request path (no query string) */
                endpoint?: string;
                /** @description Successful (2xx/3xx) or failed uses only */
                status?: "success" | "error";
                /** @description Uses at or after this time (ISO 8601) */
                from?: string;
                /** @description Uses before this time (ISO 8601) */
                to?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of audit entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `account:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_audit_usage: {
        parameters: {
            query?: {
                /** @description Default: 30 days before `to` */
                from?: string;
                /** @description Default: now */
                to?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The key's id */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `account:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_me_me: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description With a JWT: X-SELECTED-TENANT header is required */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_me_organizations: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of organizations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `account:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_me_members: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of members */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `account:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_tenants_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantRequestDto"];
            };
        };
        responses: {
            /** @description The tenant and its keys */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: this route takes the platform admin token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential is valid but not one this route takes (the platform admin token) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    account_tenants_signup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignupRequestDto"];
            };
        };
        responses: {
            /** @description The tenant */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description The token carries no email claim; signup needs one
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: this route takes a user's JWT (without X-SELECTED-TENANT) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential is valid but not one this route takes (a user's JWT (without X-SELECTED-TENANT)) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    portal_customers_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description The customer with this external id */
                external_id?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CustomerResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `portal:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    portal_customers_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCustomerRequestDto"];
            };
        };
        responses: {
            /** @description The customer */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-0000-7000-8000-0000000000c1",
                     *       "name": "Globex Corporation",
                     *       "external_id": "crm-4711",
                     *       "metadata": {
                     *         "plan": "gold"
                     *       },
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `portal:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A customer with this external_id already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    portal_customers_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The customer's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-0000-7000-8000-0000000000c1",
                     *       "name": "Globex Corporation",
                     *       "external_id": "crm-4711",
                     *       "metadata": {
                     *         "plan": "gold"
                     *       },
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `portal:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    portal_customers_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The customer's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `portal:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The customer still has API keys; revoke and remove them first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    portal_customers_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The customer's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCustomerRequestDto"];
            };
        };
        responses: {
            /** @description The customer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-0000-7000-8000-0000000000c1",
                     *       "name": "Globex Corporation",
                     *       "external_id": "crm-4711",
                     *       "metadata": {
                     *         "plan": "gold"
                     *       },
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `portal:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A customer with this external_id already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_validate_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowDefinitionDto"];
            };
        };
        responses: {
            /** @description The problems found (none: valid) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "valid": false,
                     *       "problems": [
                     *         {
                     *           "step_id": "notify",
                     *           "path": "steps[1].then[0].type",
                     *           "message": "unknown step type 'htp.request'"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ValidateWorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_validate: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowDefinitionDto"];
            };
        };
        responses: {
            /** @description The problems found (none: valid) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "valid": false,
                     *       "problems": [
                     *         {
                     *           "step_id": "notify",
                     *           "path": "steps[1].then[0].type",
                     *           "message": "unknown step type 'htp.request'"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ValidateWorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_list_apiV1: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Workflows in this status only */
                status?: "active" | "disabled";
                /** @description Name prefix, case-insensitive */
                name?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WorkflowResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_create_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description The workflow, version 1 */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 1,
                     *       "status": "active",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Workflows in this status only */
                status?: "active" | "disabled";
                /** @description Name prefix, case-insensitive */
                name?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WorkflowResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description The workflow, version 1 */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 1,
                     *       "status": "active",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_get_apiV1: {
        parameters: {
            query?: {
                /** @description A past version (default: the current one) */
                version?: number;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 1,
                     *       "status": "active",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description Workflow version not found
             *
             *     Workflow not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_replace_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description The workflow, new version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 2,
                     *       "status": "active",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Workflow not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_remove_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Workflow not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_patch_apiV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description The workflow, new version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 2,
                     *       "status": "disabled",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Workflow not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_get: {
        parameters: {
            query?: {
                /** @description A past version (default: the current one) */
                version?: number;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 1,
                     *       "status": "active",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description Workflow version not found
             *
             *     Workflow not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_replace: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description The workflow, new version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 2,
                     *       "status": "active",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Workflow not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_remove: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Workflow not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_workflows_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description The workflow, new version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "name": "Double and notify",
                     *       "description": null,
                     *       "version": 2,
                     *       "status": "disabled",
                     *       "input_schema": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "type": "transform",
                     *           "input": {
                     *             "value": "{% input.x * 2 %}"
                     *           }
                     *         },
                     *         {
                     *           "id": "check",
                     *           "type": "condition",
                     *           "if": "{% steps.double.output.value > 10 %}",
                     *           "then": [
                     *             {
                     *               "id": "notify",
                     *               "type": "http.request",
                     *               "input": {
                     *                 "method": "POST",
                     *                 "url": "https://hooks.example.com/big",
                     *                 "body": {
                     *                   "value": "{% steps.double.output.value %}"
                     *                 }
                     *               },
                     *               "retry": {
                     *                 "max_attempts": 3
                     *               }
                     *             }
                     *           ],
                     *           "else": [
                     *             {
                     *               "id": "small",
                     *               "type": "stop",
                     *               "input": {
                     *                 "output": {
                     *                   "small": true
                     *                 }
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "settings": {},
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `workflows:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Workflow not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_executions_run: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h return the first run; another body is 409 */
                "Idempotency-Key"?: string;
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunAutomationRequestDto"];
            };
        };
        responses: {
            /** @description Accepted: the run is queued (or, for a repeated Idempotency-Key, the first run) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["RunAcceptedResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `automations:run` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such automation for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used with another body, or the workflow is disabled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The input is larger than RUN_INPUT_LIMIT_BYTES (default 1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_executions_execute: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h return the first run; another body is 409 */
                "Idempotency-Key"?: string;
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The workflow's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExecuteWorkflowRequestDto"];
            };
        };
        responses: {
            /** @description Accepted: the run is queued (or, for a repeated Idempotency-Key, the first run) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["RunAcceptedResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `automations:run` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used with another body, or the workflow is disabled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The input is larger than RUN_INPUT_LIMIT_BYTES (default 1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_executions_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Executions of this workflow only */
                workflow_id?: string;
                /** @description Executions in this status only */
                status?: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "timed_out";
                /** @description Executions started this way only */
                trigger_type?: "api" | "schedule" | "event" | "webhook" | "portal" | "subworkflow";
                /** @description Created at or after this time (ISO 8601) */
                created_after?: string;
                /** @description Created before this time (ISO 8601) */
                created_before?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionSummaryDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `executions:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_executions_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The execution's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The execution */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "workflow_version": 1,
                     *       "status": "succeeded",
                     *       "input": {
                     *         "x": 21
                     *       },
                     *       "output": {
                     *         "value": 42
                     *       },
                     *       "error": null,
                     *       "trigger": {
                     *         "type": "api",
                     *         "id": null
                     *       },
                     *       "customer_id": null,
                     *       "parent_execution_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "started_at": "2026-11-22T10:00:00.010Z",
                     *       "finished_at": "2026-11-22T10:00:00.020Z",
                     *       "wake_at": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "path": "double",
                     *           "type": "transform",
                     *           "status": "succeeded",
                     *           "attempt": 1,
                     *           "started_at": "2026-11-22T10:00:00.011Z",
                     *           "finished_at": "2026-11-22T10:00:00.012Z",
                     *           "input": {
                     *             "value": 42
                     *           },
                     *           "output": {
                     *             "value": 42
                     *           },
                     *           "error": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ExecutionResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `executions:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_executions_logs: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Lines of this level only */
                level?: "debug" | "info" | "warn" | "error";
                /** @description Lines of this step only */
                step_id?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The execution's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutionLogDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `executions:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_executions_cancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The execution's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled execution */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f",
                     *       "workflow_version": 1,
                     *       "status": "cancelled",
                     *       "input": {
                     *         "x": 21
                     *       },
                     *       "output": {
                     *         "value": 42
                     *       },
                     *       "error": null,
                     *       "trigger": {
                     *         "type": "api",
                     *         "id": null
                     *       },
                     *       "customer_id": null,
                     *       "parent_execution_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "started_at": "2026-11-22T10:00:00.010Z",
                     *       "finished_at": "2026-11-22T10:00:00.020Z",
                     *       "wake_at": null,
                     *       "steps": [
                     *         {
                     *           "id": "double",
                     *           "path": "double",
                     *           "type": "transform",
                     *           "status": "succeeded",
                     *           "attempt": 1,
                     *           "started_at": "2026-11-22T10:00:00.011Z",
                     *           "finished_at": "2026-11-22T10:00:00.012Z",
                     *           "input": {
                     *             "value": 42
                     *           },
                     *           "output": {
                     *             "value": 42
                     *           },
                     *           "error": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ExecutionResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `executions:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The execution has already finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only triggers of this type */
                type?: "schedule" | "event" | "webhook";
                /** @description Only enabled or only disabled triggers */
                status?: "enabled" | "disabled";
                /** @description Only triggers of this workflow */
                workflow_id?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TriggerResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTriggerRequestDto"];
            };
        };
        responses: {
            /** @description The trigger */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01",
                     *       "name": "nightly-report",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "type": "schedule",
                     *       "status": "enabled",
                     *       "input": {
                     *         "report": "daily"
                     *       },
                     *       "schedule": {
                     *         "cron": "0 2 * * *",
                     *         "interval_seconds": null,
                     *         "timezone": "Europe/Paris",
                     *         "start_at": null,
                     *         "end_at": null,
                     *         "misfire": "fire_once"
                     *       },
                     *       "event": null,
                     *       "webhook_id": null,
                     *       "next_fire_at": "2026-11-23T01:00:00.000Z",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TriggerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The trigger's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01",
                     *       "name": "nightly-report",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "type": "schedule",
                     *       "status": "enabled",
                     *       "input": {
                     *         "report": "daily"
                     *       },
                     *       "schedule": {
                     *         "cron": "0 2 * * *",
                     *         "interval_seconds": null,
                     *         "timezone": "Europe/Paris",
                     *         "start_at": null,
                     *         "end_at": null,
                     *         "misfire": "fire_once"
                     *       },
                     *       "event": null,
                     *       "webhook_id": null,
                     *       "next_fire_at": "2026-11-23T01:00:00.000Z",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TriggerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The trigger's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The trigger's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTriggerRequestDto"];
            };
        };
        responses: {
            /** @description The trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01",
                     *       "name": "nightly-report",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "type": "schedule",
                     *       "status": "enabled",
                     *       "input": {
                     *         "report": "daily"
                     *       },
                     *       "schedule": {
                     *         "cron": "0 2 * * *",
                     *         "interval_seconds": null,
                     *         "timezone": "Europe/Paris",
                     *         "start_at": null,
                     *         "end_at": null,
                     *         "misfire": "fire_once"
                     *       },
                     *       "event": null,
                     *       "webhook_id": null,
                     *       "next_fire_at": "2026-11-23T01:00:00.000Z",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TriggerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_enable: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The trigger's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01",
                     *       "name": "nightly-report",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "type": "schedule",
                     *       "status": "enabled",
                     *       "input": {
                     *         "report": "daily"
                     *       },
                     *       "schedule": {
                     *         "cron": "0 2 * * *",
                     *         "interval_seconds": null,
                     *         "timezone": "Europe/Paris",
                     *         "start_at": null,
                     *         "end_at": null,
                     *         "misfire": "fire_once"
                     *       },
                     *       "event": null,
                     *       "webhook_id": null,
                     *       "next_fire_at": "2026-11-23T01:00:00.000Z",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TriggerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_disable: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The trigger's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e01",
                     *       "name": "nightly-report",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "type": "schedule",
                     *       "status": "disabled",
                     *       "input": {
                     *         "report": "daily"
                     *       },
                     *       "schedule": {
                     *         "cron": "0 2 * * *",
                     *         "interval_seconds": null,
                     *         "timezone": "Europe/Paris",
                     *         "start_at": null,
                     *         "end_at": null,
                     *         "misfire": "fire_once"
                     *       },
                     *       "event": null,
                     *       "webhook_id": null,
                     *       "next_fire_at": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TriggerResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    trigger_triggers_executions: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only executions with this status */
                status?: "pending" | "started" | "skipped" | "failed";
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The trigger's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TriggerExecutionResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `triggers:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_publicTasks_show: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token of a task link (from `POST /tasks/{id}/links`) */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task as the link shows it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "type": "approval",
                     *       "title": "Approve the refund of order 4711?",
                     *       "description": "The customer asks for a full refund.",
                     *       "form": {
                     *         "type": "object",
                     *         "required": [
                     *           "amount"
                     *         ],
                     *         "properties": {
                     *           "amount": {
                     *             "type": "number",
                     *             "minimum": 0,
                     *             "title": "Amount (EUR)"
                     *           },
                     *           "comment": {
                     *             "type": "string",
                     *             "ui:widget": "textarea"
                     *           }
                     *         }
                     *       },
                     *       "context": {
                     *         "order": 4711,
                     *         "amount": 1200
                     *       },
                     *       "decisions": [
                     *         "approve",
                     *         "reject"
                     *       ],
                     *       "expires_at": "2026-11-30T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PublicTaskResponseDto"];
                };
            };
            /** @description The body, a parameter or a header is invalid: `details` names every field and what is wrong with it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a valid link (malformed, tampered, or for no task) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link was used, or the task is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link has expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_publicTasks_submit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token of a task link (from `POST /tasks/{id}/links`) */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompleteTaskRequestDto"];
            };
        };
        responses: {
            /** @description Decided */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "status": "completed",
                     *       "decision": "approve",
                     *       "data": {}
                     *     }
                     */
                    "application/json": components["schemas"]["PublicTaskDecidedResponseDto"];
                };
            };
            /**
             * @description A decision the link may not make, or data that does not match the form (the task stays open, the link unused)
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a valid link (malformed, tampered, or for no task) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link was used, or the task is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link has expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_tasks_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only tasks in this state (default pending) */
                status?: "pending" | "completed" | "expired" | "cancelled";
                /** @description Only tasks assigned to this user, team or customer id; `me` for the calling user */
                assignee?: string;
                /** @description Only tasks of this workflow */
                workflow_id?: string;
                /** @description Only tasks of this execution */
                execution_id?: string;
                /** @description Only tasks due before this time */
                due_before?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TaskResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `tasks:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_tasks_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The task's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "type": "approval",
                     *       "status": "pending",
                     *       "title": "Approve the refund of order 4711?",
                     *       "description": "The customer asks for a full refund.",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "workflow_name": "refunds",
                     *       "execution_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03",
                     *       "step_id": "approve",
                     *       "step_path": "approve",
                     *       "assignee": {
                     *         "team_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02"
                     *       },
                     *       "customer_id": null,
                     *       "form": {
                     *         "type": "object",
                     *         "required": [
                     *           "amount"
                     *         ],
                     *         "properties": {
                     *           "amount": {
                     *             "type": "number",
                     *             "minimum": 0,
                     *             "title": "Amount (EUR)"
                     *           },
                     *           "comment": {
                     *             "type": "string",
                     *             "ui:widget": "textarea"
                     *           }
                     *         }
                     *       },
                     *       "context": {
                     *         "order": 4711,
                     *         "amount": 1200
                     *       },
                     *       "decisions": [
                     *         "approve",
                     *         "reject"
                     *       ],
                     *       "due_at": "2026-11-24T10:00:00.000Z",
                     *       "on_expiry": "reject",
                     *       "escalated": false,
                     *       "decision": null,
                     *       "data": null,
                     *       "completed_by": null,
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TaskResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `tasks:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such task in this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_tasks_assign: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The task's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignTaskRequestDto"];
            };
        };
        responses: {
            /** @description The task, with its new assignee */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "type": "approval",
                     *       "status": "pending",
                     *       "title": "Approve the refund of order 4711?",
                     *       "description": "The customer asks for a full refund.",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "workflow_name": "refunds",
                     *       "execution_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03",
                     *       "step_id": "approve",
                     *       "step_path": "approve",
                     *       "assignee": {
                     *         "user_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01"
                     *       },
                     *       "customer_id": null,
                     *       "form": {
                     *         "type": "object",
                     *         "required": [
                     *           "amount"
                     *         ],
                     *         "properties": {
                     *           "amount": {
                     *             "type": "number",
                     *             "minimum": 0,
                     *             "title": "Amount (EUR)"
                     *           },
                     *           "comment": {
                     *             "type": "string",
                     *             "ui:widget": "textarea"
                     *           }
                     *         }
                     *       },
                     *       "context": {
                     *         "order": 4711,
                     *         "amount": 1200
                     *       },
                     *       "decisions": [
                     *         "approve",
                     *         "reject"
                     *       ],
                     *       "due_at": "2026-11-24T10:00:00.000Z",
                     *       "on_expiry": "reject",
                     *       "escalated": false,
                     *       "decision": null,
                     *       "data": null,
                     *       "completed_by": null,
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TaskResponseDto"];
                };
            };
            /**
             * @description Neither or both of user_id and team_id, or not a user or team of this tenant
             *
             *     With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `tasks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such task in this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The task is no longer pending (completed, expired or cancelled) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_tasks_complete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The task's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompleteTaskRequestDto"];
            };
        };
        responses: {
            /** @description The completed task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "type": "approval",
                     *       "status": "completed",
                     *       "title": "Approve the refund of order 4711?",
                     *       "description": "The customer asks for a full refund.",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "workflow_name": "refunds",
                     *       "execution_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03",
                     *       "step_id": "approve",
                     *       "step_path": "approve",
                     *       "assignee": {
                     *         "team_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02"
                     *       },
                     *       "customer_id": null,
                     *       "form": {
                     *         "type": "object",
                     *         "required": [
                     *           "amount"
                     *         ],
                     *         "properties": {
                     *           "amount": {
                     *             "type": "number",
                     *             "minimum": 0,
                     *             "title": "Amount (EUR)"
                     *           },
                     *           "comment": {
                     *             "type": "string",
                     *             "ui:widget": "textarea"
                     *           }
                     *         }
                     *       },
                     *       "context": {
                     *         "order": 4711,
                     *         "amount": 1200
                     *       },
                     *       "decisions": [
                     *         "approve",
                     *         "reject"
                     *       ],
                     *       "due_at": "2026-11-24T10:00:00.000Z",
                     *       "on_expiry": "reject",
                     *       "escalated": false,
                     *       "decision": "approve",
                     *       "data": {
                     *         "amount": 1200,
                     *         "comment": "Within budget"
                     *       },
                     *       "completed_by": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01",
                     *       "completed_at": "2026-11-23T11:00:00.000Z",
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T11:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TaskResponseDto"];
                };
            };
            /**
             * @description A decision this task does not take, or data that does not match the form (each field named in `details`); the task stays open
             *
             *     With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The caller is not the assignee, not in the assigned team, and not a tenant key
             *
             *     The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `tasks:write`
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such task in this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The task was already completed, has expired, or was cancelled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    task_tasks_createLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The task's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTaskLinkRequestDto"];
            };
        };
        responses: {
            /** @description The link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "/tasks/public/eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA",
                     *       "token": "eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA",
                     *       "task_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "decisions": [
                     *         "approve",
                     *         "reject"
                     *       ],
                     *       "expires_at": "2026-11-30T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TaskLinkResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `tasks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such task in this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The task is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_receiver_receive: {
        parameters: {
            query?: never;
            header?: {
                /** @description The deduplication key when there is no `webhook-id`: a repeated key answers 200 with the first delivery and its run */
                "Idempotency-Key"?: string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` signatures with the webhook secret (the base64 after `whsec_`); one valid one suffices. Required with hmac verification. */
                "webhook-signature"?: string;
                /** @description Standard Webhooks: Unix time in seconds of the sending, signed; refused more than 5 minutes from now. Required with hmac verification. */
                "webhook-timestamp"?: string;
                /** @description Standard Webhooks: the message id, signed; also the deduplication key (a repeated id answers 200 with the first delivery and its run). Required with hmac verification. */
                "webhook-id"?: string;
            };
            path: {
                /** @description The webhook's id, the last segment of its `url` (an unknown or disabled webhook answers 404) */
                id: string;
            };
            cookie?: never;
        };
        /** @description The delivery, as the sender sends it (up to `BODY_LIMIT_BYTES`). The run input is `{ body, headers, query, method, webhook_id, delivery_id }`, `body` parsed from JSON or a form, else the text. */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "type": "invoice.paid",
                 *       "data": {
                 *         "invoice_id": "in_4711",
                 *         "amount": 4200,
                 *         "currency": "eur"
                 *       }
                 *     }
                 */
                "application/json": {
                    [key: string]: unknown;
                };
                /**
                 * @example {
                 *       "event": "invoice.paid",
                 *       "invoice_id": "in_4711"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    [key: string]: string;
                };
                /** @example invoice in_4711 paid */
                "text/plain": string;
                /** @example <event type="invoice.paid"><invoice>in_4711</invoice></event> */
                "application/xml": string;
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description A repeated `webhook-id` or `Idempotency-Key` (`duplicate`: the first delivery and its run), or in sync mode the run finished: its final `status`, `output` and `error` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryReceivedResponseDto"];
                };
            };
            /** @description Accepted: the delivery is recorded and its run started (async mode, or sync mode when the run did not finish within `timeout_ms`: `status` is `running`) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryReceivedResponseDto"];
                };
            };
            /**
             * @description The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The signature or token is missing or invalid, or the timestamp is outside the 5-minute tolerance (the delivery is logged as rejected) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than `BODY_LIMIT_BYTES` (default 10 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only webhooks of this workflow */
                workflow_id?: string;
                /** @description Only enabled (true) or only disabled (false) webhooks */
                enabled?: boolean;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookRequestDto"];
            };
        };
        responses: {
            /** @description The webhook, with its secret (hmac, token) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "name": "stripe-events",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "url": "/webhooks/in/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "verification": {
                     *         "type": "hmac"
                     *       },
                     *       "response": {
                     *         "mode": "async"
                     *       },
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3J8N7WzqD1A="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The webhook's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "name": "stripe-events",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "url": "/webhooks/in/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "verification": {
                     *         "type": "hmac"
                     *       },
                     *       "response": {
                     *         "mode": "async"
                     *       },
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The webhook's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The webhook's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookRequestDto"];
            };
        };
        responses: {
            /** @description The webhook (with `secret` when a new one was made) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "name": "stripe-events",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "url": "/webhooks/in/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "verification": {
                     *         "type": "hmac"
                     *       },
                     *       "response": {
                     *         "mode": "async"
                     *       },
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_rotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The webhook's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook, with its new secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "name": "stripe-events",
                     *       "workflow_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "url": "/webhooks/in/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e04",
                     *       "verification": {
                     *         "type": "hmac"
                     *       },
                     *       "response": {
                     *         "mode": "async"
                     *       },
                     *       "enabled": true,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3J8N7WzqD1A="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_logs: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only deliveries with this outcome */
                outcome?: "accepted" | "duplicate" | "rejected";
                /** @description Only deliveries received at or after this time */
                from?: string;
                /** @description Only deliveries received before this time */
                to?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The webhook's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DeliveryResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhook_webhooks_replay: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The webhook's id */
                id: string;
                /** @description The delivery's id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: the new delivery and its run */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03",
                     *       "delivery_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e06",
                     *       "replay_of": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e05"
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryReplayedResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `webhooks:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such webhook, or no such delivery of it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Only accepted deliveries can be replayed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_files_upload: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and upload within 24 h return the first answer (with Idempotent-Replayed: true); another upload with the key is 409 */
                "Idempotency-Key"?: string;
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The content; its type is sniffed from the bytes, not taken from the part header
                     */
                    file: string;
                    /**
                     * @description Defaults to the part's filename
                     * @example invoices/2026-11.pdf
                     */
                    name?: string;
                    /**
                     * @description A JSON object, up to 16 KiB
                     * @example {"customer":"crm-4711"}
                     */
                    metadata?: string;
                };
            };
        };
        responses: {
            /** @description The file's metadata */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "invoice-2026-11.pdf",
                     *       "size": 48213,
                     *       "content_type": "application/pdf",
                     *       "declared_content_type": "application/pdf",
                     *       "checksum_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *       "metadata": {
                     *         "customer": "crm-4711"
                     *       },
                     *       "customer_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["FileResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used with a different upload in the last 24 hours */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_files_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Files whose name starts with this (case-sensitive) */
                name?: string;
                /** @description The sniffed content type, exactly */
                content_type?: string;
                /** @description Created strictly after this time (ISO 8601) */
                created_after?: string;
                /** @description Created strictly before this time (ISO 8601) */
                created_before?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FileResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_files_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The file's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file's metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "invoice-2026-11.pdf",
                     *       "size": 48213,
                     *       "content_type": "application/pdf",
                     *       "declared_content_type": "application/pdf",
                     *       "checksum_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *       "metadata": {
                     *         "customer": "crm-4711"
                     *       },
                     *       "customer_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["FileResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_files_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The file's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_files_content: {
        parameters: {
            query?: never;
            header?: {
                /** @description One byte range */
                Range?: string;
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The file's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes, with Content-Type (sniffed at upload), Content-Length, ETag (the SHA-256) and Content-Disposition: attachment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The requested range, with Content-Range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The range is outside the file */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_files_verify: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The file's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the content is intact */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "checksum_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *       "valid": true
                     *     }
                     */
                    "application/json": components["schemas"]["VerifyFileResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_resources_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Resources of this type only */
                type?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ResourceResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_resources_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResourceRequestDto"];
            };
        };
        responses: {
            /** @description The resource */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "orders-db",
                     *       "type": "postgres",
                     *       "config": {
                     *         "host": "db.internal",
                     *         "port": 5432,
                     *         "database": "orders",
                     *         "password_secret": "ORDERS_DB_PASSWORD"
                     *       },
                     *       "description": "Orders database, read replica",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ResourceResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A resource named 'orders-db' already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_resources_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The resource's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "orders-db",
                     *       "type": "postgres",
                     *       "config": {
                     *         "host": "db.internal",
                     *         "port": 5432,
                     *         "database": "orders",
                     *         "password_secret": "ORDERS_DB_PASSWORD"
                     *       },
                     *       "description": "Orders database, read replica",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ResourceResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_resources_replace: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The resource's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResourceRequestDto"];
            };
        };
        responses: {
            /** @description The resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "orders-db",
                     *       "type": "postgres",
                     *       "config": {
                     *         "host": "db.internal",
                     *         "port": 5432,
                     *         "database": "orders",
                     *         "password_secret": "ORDERS_DB_PASSWORD"
                     *       },
                     *       "description": "Orders database, read replica",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ResourceResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A resource named 'orders-db' already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_resources_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The resource's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_resources_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The resource's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchResourceRequestDto"];
            };
        };
        responses: {
            /** @description The resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e",
                     *       "name": "orders-db",
                     *       "type": "postgres",
                     *       "config": {
                     *         "host": "db.internal",
                     *         "port": 5432,
                     *         "database": "orders",
                     *         "password_secret": "ORDERS_DB_PASSWORD"
                     *       },
                     *       "description": "Orders database, read replica",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ResourceResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `storage:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A resource named 'orders-db' already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_secrets_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SecretResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `secrets:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_secrets_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSecretRequestDto"];
            };
        };
        responses: {
            /** @description The secret's metadata */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "STRIPE_API_KEY",
                     *       "description": "Stripe key used by the billing workflows",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z",
                     *       "last_read_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["SecretResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `secrets:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A secret named 'STRIPE_API_KEY' already exists in this environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_secrets_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description [A-Za-z0-9_.-]{1,128} */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret's metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "STRIPE_API_KEY",
                     *       "description": "Stripe key used by the billing workflows",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z",
                     *       "last_read_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["SecretResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `secrets:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_secrets_replace: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description [A-Za-z0-9_.-]{1,128} */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplaceSecretRequestDto"];
            };
        };
        responses: {
            /** @description The secret's metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "STRIPE_API_KEY",
                     *       "description": "Stripe key used by the billing workflows",
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z",
                     *       "last_read_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["SecretResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `secrets:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_secrets_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description [A-Za-z0-9_.-]{1,128} */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `secrets:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataTables_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DataTableResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataTables_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDataTableRequestDto"];
            };
        };
        responses: {
            /** @description The table definition */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "orders",
                     *       "columns": [
                     *         {
                     *           "name": "customer",
                     *           "type": "text",
                     *           "nullable": false,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "amount",
                     *           "type": "number",
                     *           "nullable": true,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "status",
                     *           "type": "text",
                     *           "nullable": true,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "paid_at",
                     *           "type": "timestamp",
                     *           "nullable": true,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "reference",
                     *           "type": "text",
                     *           "nullable": true,
                     *           "unique": true
                     *         }
                     *       ],
                     *       "indexes": [
                     *         [
                     *           "status",
                     *           "paid_at"
                     *         ]
                     *       ],
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DataTableResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A data table named 'orders' already exists in this environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataTables_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description [a-z_][a-z0-9_]{0,62} */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The table definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "orders",
                     *       "columns": [
                     *         {
                     *           "name": "customer",
                     *           "type": "text",
                     *           "nullable": false,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "amount",
                     *           "type": "number",
                     *           "nullable": true,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "status",
                     *           "type": "text",
                     *           "nullable": true,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "paid_at",
                     *           "type": "timestamp",
                     *           "nullable": true,
                     *           "unique": false
                     *         },
                     *         {
                     *           "name": "reference",
                     *           "type": "text",
                     *           "nullable": true,
                     *           "unique": true
                     *         }
                     *       ],
                     *       "indexes": [
                     *         [
                     *           "status",
                     *           "paid_at"
                     *         ]
                     *       ],
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DataTableResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataTables_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description [a-z_][a-z0-9_]{0,62} */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataRows_list: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Rows per page */
                limit?: number;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The data table */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            [key: string]: unknown;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataRows_insert: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The data table */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The row; for a bulk insert { rows: [...] } in the order sent */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another row already has this value in unique column 'reference' */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataRows_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The data table */
                name: string;
                /** @description The row */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataRows_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The data table */
                name: string;
                /** @description The row */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another row already has this value in unique column 'reference' */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    storage_dataQuery_query: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DataQueryRequestDto"];
            };
        };
        responses: {
            /** @description The columns and rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /**
             * @description Not one SELECT, a refused construct (named, with its position), or a failure while running (the database message).
             *
             *     With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `data:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_notifications_send: {
        parameters: {
            query?: never;
            header?: {
                /** @description Same as `idempotency_key` in the body (the body wins when both are given) */
                "Idempotency-Key"?: string;
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendNotificationRequestDto"];
            };
        };
        responses: {
            /** @description Accepted and queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["NotificationQueuedResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:send` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The idempotency_key was used with another request */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The sending limit per minute or per day is reached (Retry-After)
             *
             *     Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_notifications_history: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only notifications of this channel */
                channel_id?: string;
                /** @description Only notifications with this status */
                status?: "queued" | "sending" | "retrying" | "delivered" | "failed" | "rate_limited";
                /** @description Only notifications accepted at or after this time */
                from?: string;
                /** @description Only notifications accepted before this time */
                to?: string;
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NotificationResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_notifications_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The history's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The notification */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10",
                     *       "status": "delivered",
                     *       "kind": "slack",
                     *       "channel_id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01",
                     *       "source": "api",
                     *       "to": null,
                     *       "subject": "Deploy 1.4.2 finished",
                     *       "template": null,
                     *       "idempotency_key": "deploy-1.4.2",
                     *       "customer_id": null,
                     *       "attempts": [
                     *         {
                     *           "attempt": 1,
                     *           "at": "2026-11-22T10:00:00.120Z",
                     *           "outcome": "retry",
                     *           "status_code": 429,
                     *           "error": "HTTP 429: rate_limited",
                     *           "retry_at": "2026-11-22T10:00:02.120Z"
                     *         },
                     *         {
                     *           "attempt": 2,
                     *           "at": "2026-11-22T10:00:02.200Z",
                     *           "outcome": "delivered",
                     *           "status_code": 200,
                     *           "error": null
                     *         }
                     *       ],
                     *       "created_at": "2026-11-22T10:00:00.100Z",
                     *       "updated_at": "2026-11-22T10:00:02.200Z",
                     *       "delivered_at": "2026-11-22T10:00:02.200Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NotificationResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such notification */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_channels_list: {
        parameters: {
            query?: {
                /** @description Items per page */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor */
                cursor?: string;
                /** @description Only channels of this kind */
                kind?: "email" | "slack" | "teams";
            };
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page, in the route's order; `next_cursor` is null on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChannelResponseDto"][];
                        /**
                         * @description Pass as `cursor` for the next page; null on the last page
                         * @example null
                         */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_channels_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateChannelRequestDto"];
            };
        };
        responses: {
            /** @description The channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01",
                     *       "name": "ops-alerts",
                     *       "kind": "slack",
                     *       "slack": {
                     *         "mode": "webhook",
                     *         "channel": null
                     *       },
                     *       "secrets": [
                     *         "webhook_url"
                     *       ],
                     *       "enabled": true,
                     *       "customer_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_channels_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The channel's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02",
                     *       "name": "mail",
                     *       "kind": "email",
                     *       "secrets": [
                     *         "password"
                     *       ],
                     *       "enabled": true,
                     *       "customer_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z",
                     *       "email": {
                     *         "host": "smtp.example.com",
                     *         "port": 587,
                     *         "security": "starttls",
                     *         "username": "notifications@example.com",
                     *         "from": "Acme Alerts <alerts@example.com>",
                     *         "reply_to": null,
                     *         "to": [
                     *           "ops@example.com"
                     *         ],
                     *         "ca": false
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:read` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_channels_delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The channel's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_channels_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The channel's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateChannelRequestDto"];
            };
        };
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01",
                     *       "name": "ops-alerts",
                     *       "kind": "slack",
                     *       "slack": {
                     *         "mode": "webhook",
                     *         "channel": null
                     *       },
                     *       "secrets": [
                     *         "webhook_url"
                     *       ],
                     *       "enabled": true,
                     *       "customer_id": null,
                     *       "created_at": "2026-11-22T10:00:00.000Z",
                     *       "updated_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this caller (its tenant, environment and customer scope) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    notification_channels_test: {
        parameters: {
            query?: never;
            header?: {
                /** @description With a JWT: the tenant to act in (required; one of the token's `authorized_tenants`). Ignored with an API key. */
                "X-SELECTED-TENANT"?: string;
                /** @description With a JWT: the environment (data plane) to act in; default the tenant's production environment. Ignored with an API key. */
                "X-SELECTED-ENV"?: string;
                /** @description A customer id: narrows a tenant-wide credential to that customer's rows. A customer key may only repeat its own customer. */
                "X-Scope-Key"?: string;
            };
            path: {
                /** @description The channel's id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestChannelRequestDto"];
            };
        };
        responses: {
            /** @description The outcome of the attempt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "status_code": 200,
                     *       "error": null,
                     *       "duration_ms": 182
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelTestResponseDto"];
                };
            };
            /**
             * @description With a JWT: X-SELECTED-TENANT header is required
             *
             *     The body, a parameter or a header is invalid: `details` names every field and what is wrong with it
             *
             *     The body is not JSON, or nests deeper than 100 levels
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid authentication credentials: no credential, a malformed or unknown key, a revoked or expired key, or an invalid JWT */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks a required scope, or its tenant, environment or customer scope does not allow the call. Requires `notifications:write` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not of a media type this route takes (`Content-Type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this credential in the current window (through the gateway); `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure; the message is generic and the log has the details under the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials cannot be checked right now (the account service or the identity provider is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    gateway_health_platform: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every service is UP */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "UP",
                     *       "services": {
                     *         "run": {
                     *           "status": "UP",
                     *           "latency_ms": 1.2,
                     *           "components": {
                     *             "database": {
                     *               "status": "UP",
                     *               "latency_ms": 0.8
                     *             },
                     *             "nats": {
                     *               "status": "UP",
                     *               "latency_ms": 0.3
                     *             }
                     *           }
                     *         },
                     *         "storage": {
                     *           "status": "UP",
                     *           "latency_ms": 1.2,
                     *           "components": {
                     *             "database": {
                     *               "status": "UP",
                     *               "latency_ms": 0.8
                     *             },
                     *             "nats": {
                     *               "status": "UP",
                     *               "latency_ms": 0.3
                     *             }
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PlatformHealth"];
                };
            };
            /** @description A service is DOWN */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "DOWN",
                     *       "services": {
                     *         "run": {
                     *           "status": "UP",
                     *           "latency_ms": 1.2,
                     *           "components": {
                     *             "database": {
                     *               "status": "UP",
                     *               "latency_ms": 0.8
                     *             },
                     *             "nats": {
                     *               "status": "UP",
                     *               "latency_ms": 0.3
                     *             }
                     *           }
                     *         },
                     *         "storage": {
                     *           "status": "DOWN",
                     *           "latency_ms": 2000.3,
                     *           "error": "timed out"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PlatformHealth"];
                };
            };
        };
    };
    gateway_health_liveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gateway is up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "UP"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "UP";
                    };
                };
            };
        };
    };
    gateway_health_service: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A service of the platform */
                service: "account" | "catalog" | "connection" | "portal" | "run" | "trigger" | "task" | "webhook" | "storage" | "subscription" | "notification" | "ai-runtime" | "kb-worker";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is UP */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "UP",
                     *       "service": "run",
                     *       "components": {
                     *         "database": {
                     *           "status": "UP",
                     *           "latency_ms": 0.8
                     *         },
                     *         "nats": {
                     *           "status": "UP",
                     *           "latency_ms": 0.3
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ServiceHealth"];
                };
            };
            /** @description No such service */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service or one of its dependencies is DOWN */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "DOWN",
                     *       "service": "run",
                     *       "components": {
                     *         "database": {
                     *           "status": "DOWN",
                     *           "latency_ms": 2000,
                     *           "error": "database unreachable"
                     *         },
                     *         "nats": {
                     *           "status": "UP",
                     *           "latency_ms": 0.3
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ServiceHealth"];
                };
            };
        };
    };
    gateway_docs_merged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An OpenAPI 3.0 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.0.0",
                     *       "info": {
                     *         "title": "Workflow automation platform",
                     *         "version": "1.0.0"
                     *       },
                     *       "paths": {}
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description No valid credential, and the docs are not public */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this caller in the current window; `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    gateway_docs_service: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A service of the platform */
                service: "account" | "catalog" | "connection" | "portal" | "run" | "trigger" | "task" | "webhook" | "storage" | "subscription" | "notification" | "ai-runtime" | "kb-worker";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An OpenAPI 3.0 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.0.0",
                     *       "info": {
                     *         "title": "Run service",
                     *         "version": "1.0.0"
                     *       },
                     *       "paths": {}
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description No valid credential, and the docs are not public */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such service */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this caller in the current window; `Retry-After` says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
