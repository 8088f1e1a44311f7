/**
 * A small client for a running n8n: owner setup and login (internal REST, cookie), a public API key,
 * then the public API (/api/v1) for credentials, workflows and executions.
 */
export const OWNER = {
	email: 'owner@example.com',
	password: 'Practice-e2e-1',
	firstName: 'Practice',
	lastName: 'Owner',
};

type Json = Record<string, unknown>;

export class N8nApiError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		what: string,
	) {
		super(
			`${what}: HTTP ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`.slice(
				0,
				2000,
			),
		);
	}
}

export interface WorkflowJson {
	name: string;
	nodes: Json[];
	connections: Json;
	settings?: Json;
}

export interface Execution {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	workflowId: string;
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json: Json }> | null> }; error?: Json }>
			>;
			error?: Json;
			lastNodeExecuted?: string;
		};
	};
}

export class N8nApi {
	private cookie = '';
	private apiKey = '';
	/** n8n ties the auth cookie to a browser id header. */
	private readonly browserId = 'wsp-e2e-browser';

	/**
	 * `major`: n8n 1.x's public API wants an extra field in credential data. `webhookBaseUrl`: where
	 * production webhooks are served (queue mode's webhook process), main's address by default.
	 */
	constructor(
		readonly baseUrl: string,
		readonly major: 1 | 2 = 2,
		readonly webhookBaseUrl: string = baseUrl,
	) {}

	private async call(
		path: string,
		init: RequestInit & { json?: unknown },
	): Promise<{ status: number; body: unknown; headers: Headers }> {
		const headers: Record<string, string> = {
			'browser-id': this.browserId,
			...(init.headers as Record<string, string>),
		};
		if (this.cookie) headers.cookie = this.cookie;
		if (path.startsWith('/api/') && this.apiKey) headers['X-N8N-API-KEY'] = this.apiKey;
		let body = init.body;
		if (init.json !== undefined) {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(init.json);
		}
		const url = path.startsWith('http') ? path : this.baseUrl + path;
		const res = await fetch(url, { ...init, headers, body, signal: AbortSignal.timeout(60000) });
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON: keep the text
		}
		return { status: res.status, body: parsed, headers: res.headers };
	}

	private async ok<T>(
		path: string,
		init: RequestInit & { json?: unknown },
		what: string,
	): Promise<T> {
		const res = await this.call(path, init);
		if (res.status >= 400) throw new N8nApiError(res.status, res.body, what);
		return res.body as T;
	}

	/** The internal REST API wraps payloads in {data}. */
	private async rest<T>(
		path: string,
		init: RequestInit & { json?: unknown },
		what: string,
	): Promise<T> {
		const body = await this.ok<{ data: T }>(`/rest${path}`, init, what);
		return body?.data;
	}

	private keepCookie(headers: Headers): void {
		const auth = headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
	}

	/** Owner setup (first run of a user folder), login, and a public API key with every scope. */
	async bootstrap(): Promise<void> {
		const setup = await this.call('/rest/owner/setup', { method: 'POST', json: OWNER });
		// 400 when the owner already exists (a reused user folder): log in instead.
		if (setup.status >= 400 && setup.status !== 400)
			throw new N8nApiError(setup.status, setup.body, 'owner setup');
		const login = await this.call('/rest/login', {
			method: 'POST',
			json: { emailOrLdapLoginId: OWNER.email, email: OWNER.email, password: OWNER.password },
		});
		if (login.status >= 400) throw new N8nApiError(login.status, login.body, 'login');
		this.keepCookie(login.headers);
		if (!this.cookie) throw new Error('login: n8n set no n8n-auth cookie');
		this.apiKey = await this.createApiKey();
	}

	private async createApiKey(): Promise<string> {
		const scopes = await this.rest<string[]>(
			'/api-keys/scopes',
			{ method: 'GET' },
			'API key scopes',
		).catch(() => undefined);
		const created = await this.rest<Json>(
			'/api-keys',
			{
				method: 'POST',
				json: { label: `e2e ${Date.now()}`, expiresAt: null, ...(scopes ? { scopes } : {}) },
			},
			'create API key',
		);
		const key = (created.rawApiKey ?? created.apiKey) as string | undefined;
		if (!key) throw new Error(`create API key: no key in ${JSON.stringify(created)}`);
		return key;
	}

	get publicApiKey(): string {
		return this.apiKey;
	}

	// ---------- credentials ----------

	async createCredential(
		name: string,
		type: string,
		data: Json,
	): Promise<{ id: string; name: string }> {
		const what = `create credential ${name}`;
		const first = await this.call('/api/v1/credentials', {
			method: 'POST',
			json: { name, type, data },
		});
		// n8n 1.123's public API wants this field for credential types the HTTP Request node can use
		// (and refuses it for the others): add it when that is what the answer asks for.
		if (
			this.major === 1 &&
			first.status === 400 &&
			/allowed(HttpRequest)?Domains/.test(JSON.stringify(first.body))
		) {
			return await this.ok(
				'/api/v1/credentials',
				{
					method: 'POST',
					json: { name, type, data: { allowedHttpRequestDomains: 'all', ...data } },
				},
				what,
			);
		}
		if (first.status >= 400) throw new N8nApiError(first.status, first.body, what);
		return first.body as { id: string; name: string };
	}

	/** Replaces a credential's data (internal REST, as the editor's Save). */
	async updateCredential(
		credential: { id: string; name: string },
		type: string,
		data: Json,
	): Promise<void> {
		await this.rest(
			`/credentials/${credential.id}`,
			{ method: 'PATCH', json: { name: credential.name, type, data } },
			`update credential ${credential.name}`,
		);
	}

	/** Runs the credential type's `test` request in n8n (internal REST, as the editor's "Test" button). */
	async testCredential(
		id: string,
		name: string,
		type: string,
		data: Json,
	): Promise<{ status: string; message: string }> {
		return await this.rest(
			'/credentials/test',
			{ method: 'POST', json: { credentials: { id, name, type, data } } },
			`test credential ${name}`,
		);
	}

	// ---------- workflows ----------

	async createWorkflow(workflow: WorkflowJson): Promise<{ id: string }> {
		return await this.ok(
			'/api/v1/workflows',
			{ method: 'POST', json: { settings: { executionOrder: 'v1' }, ...workflow } },
			`create workflow "${workflow.name}"`,
		);
	}

	async activate(id: string): Promise<void> {
		await this.ok(
			`/api/v1/workflows/${id}/activate`,
			{ method: 'POST' },
			`activate workflow ${id}`,
		);
	}

	async deactivate(id: string): Promise<void> {
		await this.ok(
			`/api/v1/workflows/${id}/deactivate`,
			{ method: 'POST' },
			`deactivate workflow ${id}`,
		);
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.ok(`/api/v1/workflows/${id}`, { method: 'DELETE' }, `delete workflow ${id}`);
	}

	// ---------- executions ----------

	async executions(workflowId: string, status?: string): Promise<Execution[]> {
		const qs = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
		if (status) qs.set('status', status);
		const body = await this.ok<{ data: Execution[] }>(
			`/api/v1/executions?${qs.toString()}`,
			{ method: 'GET' },
			'list executions',
		);
		return body.data;
	}

	async execution(id: string): Promise<Execution> {
		return await this.ok(
			`/api/v1/executions/${id}?includeData=true`,
			{ method: 'GET' },
			`get execution ${id}`,
		);
	}

	// ---------- node types (what the editor lists) ----------

	async nodeTypeNames(): Promise<string[]> {
		const res = await this.call('/types/nodes.json', { method: 'GET' });
		if (res.status >= 400 || !Array.isArray(res.body))
			throw new N8nApiError(res.status, res.body, 'node types');
		return (res.body as Array<{ name: string }>).map((t) => t.name);
	}

	// ---------- webhooks ----------

	/** Calls a production webhook; retries 404 briefly, since registration after activation is asynchronous. */
	async callWebhook(
		path: string,
		init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
	): Promise<{ status: number; body: unknown }> {
		const deadline = Date.now() + 15000;
		for (;;) {
			const res = await this.call(`${this.webhookBaseUrl}/webhook/${path}`, {
				method: init.method ?? 'POST',
				json: init.json ?? {},
				headers: init.headers,
			});
			if (res.status !== 404 || Date.now() > deadline)
				return { status: res.status, body: res.body };
			await new Promise((r) => setTimeout(r, 300));
		}
	}

	/** Raw access for steps that check something this client does not wrap. */
	async raw(
		path: string,
		init: RequestInit & { json?: unknown } = {},
	): Promise<{ status: number; body: unknown }> {
		const res = await this.call(path, init);
		return { status: res.status, body: res.body };
	}
}
