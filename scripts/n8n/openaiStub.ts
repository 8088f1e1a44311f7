/**
 * A scripted OpenAI-compatible chat model on 127.0.0.1, for n8n's OpenAI Chat Model node (its
 * credential's Base URL points here). It answers `POST /v1/chat/completions` from a script: each turn
 * either calls tools or gives the final answer, which may quote the tool results it received. It
 * records what n8n sent: the `tools` offered (name, description, JSON schema) and the tool results.
 *
 * The turn is read from the request itself (how many tool results it carries), so the stub holds no
 * conversation state and a retried request gets the same answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OfferedTool {
	name: string;
	description: string;
	/** JSON schema of the arguments, as n8n built it from the tool's $fromAI() calls. */
	parameters: {
		type?: string;
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}

export interface ToolResult {
	/** The tool the result answers (looked up from the assistant's tool call). */
	name: string;
	callId: string;
	/** What n8n passed back to the model, verbatim. */
	content: string;
}

export interface ChatRequest {
	/** The first user message: which conversation this is. */
	prompt: string;
	stream: boolean;
	tools: OfferedTool[];
	/** Tool results in the conversation so far, in order. */
	results: ToolResult[];
}

export interface ToolCall {
	/** A tool name as offered. */
	tool: string;
	args: Record<string, unknown>;
}

/**
 * One model turn: call tools (in parallel, as one assistant message), or answer. Both may depend on
 * the request, e.g. to pass on an ID an earlier tool returned or to quote the results.
 */
export type Turn =
	| { calls: (request: ChatRequest) => ToolCall[] }
	| { answer: (request: ChatRequest) => string };

/** A conversation, picked by the prompt it starts with. */
export interface Script {
	matches: (prompt: string) => boolean;
	turns: Turn[];
}

interface WireMessage {
	role: string;
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

interface WireRequest {
	model?: string;
	stream?: boolean;
	messages?: WireMessage[];
	tools?: Array<{ type: string; function: OfferedTool }>;
}

const text = (content: WireMessage['content']): string =>
	typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');

export class OpenAiStub {
	/** Every request, in order, as the stub understood it. */
	readonly requests: ChatRequest[] = [];
	/** Every error the stub answered with (an unknown prompt, a script that could not go on). */
	readonly problems: string[] = [];
	private scripts: Script[] = [];
	private callCounter = 0;

	private readonly server: Server = createServer((req, res) => {
		void this.handle(req, res);
	});
	private port = 0;

	private constructor() {}

	/** The credential's Base URL. */
	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}/v1`;
	}

	static async start(): Promise<OpenAiStub> {
		const stub = new OpenAiStub();
		await new Promise<void>((resolve, reject) => {
			stub.server.once('error', reject);
			stub.server.listen(0, '127.0.0.1', () => resolve());
		});
		stub.port = (stub.server.address() as AddressInfo).port;
		return stub;
	}

	/** Adds a conversation; a request whose prompt matches none is answered 400. */
	script(script: Script): void {
		this.scripts.push(script);
	}

	/** Requests of one conversation. */
	conversation(matches: (prompt: string) => boolean): ChatRequest[] {
		return this.requests.filter((r) => matches(r.prompt));
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
			return this.fail(
				res,
				404,
				`the stub serves POST /v1/chat/completions only, not ${req.method} ${req.url}`,
			);
		}
		let body: WireRequest;
		try {
			body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WireRequest;
		} catch {
			return this.fail(res, 400, 'the body is not JSON');
		}
		const messages = body.messages ?? [];
		const request = this.understand(body, messages);
		this.requests.push(request);
		const script = this.scripts.find((s) => s.matches(request.prompt));
		if (!script)
			return this.fail(res, 400, `no script for the prompt "${request.prompt.slice(0, 200)}"`);
		try {
			this.answer(res, body, request, script);
		} catch (error) {
			// A script that cannot go on (a result it needs is missing) says why, in the model's error.
			this.fail(
				res,
				500,
				`script error: ${error instanceof Error ? error.message : String(error)}`,
			);
		}
	}

	/**
	 * The turn to play: the first one whose tool calls have not all been answered yet. (Counting
	 * assistant messages would not do: n8n's agent may replay one batch of parallel calls as several.)
	 */
	private currentTurn(script: Script, request: ChatRequest): Turn {
		let answered = 0;
		for (const turn of script.turns) {
			if (!('calls' in turn) || request.results.length <= answered) return turn;
			answered += turn.calls(request).length;
		}
		return script.turns[script.turns.length - 1];
	}

	private answer(
		res: ServerResponse,
		body: WireRequest,
		request: ChatRequest,
		script: Script,
	): void {
		const turn = this.currentTurn(script, request);
		const model = body.model ?? 'stub';
		if ('calls' in turn) {
			const calls = turn.calls(request).map((call) => ({
				id: `call_${++this.callCounter}`,
				type: 'function' as const,
				function: { name: call.tool, arguments: JSON.stringify(call.args) },
			}));
			return request.stream
				? this.streamToolCalls(res, model, calls)
				: this.reply(
						res,
						model,
						{ role: 'assistant', content: null, tool_calls: calls },
						'tool_calls',
					);
		}
		const answer = turn.answer(request);
		return request.stream
			? this.streamText(res, model, answer)
			: this.reply(res, model, { role: 'assistant', content: answer }, 'stop');
	}

	private understand(body: WireRequest, messages: WireMessage[]): ChatRequest {
		const names = new Map<string, string>();
		for (const m of messages)
			for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
		return {
			prompt: text(messages.find((m) => m.role === 'user')?.content),
			stream: body.stream === true,
			tools: (body.tools ?? []).map((t) => t.function),
			results: messages
				.filter((m) => m.role === 'tool')
				.map((m) => ({
					callId: m.tool_call_id ?? '',
					name: names.get(m.tool_call_id ?? '') ?? '',
					content: text(m.content),
				})),
		};
	}

	private envelope(model: string, object: string): Record<string, unknown> {
		return {
			id: `chatcmpl-stub-${this.requests.length}`,
			object,
			created: Math.floor(Date.now() / 1000),
			model,
		};
	}

	private reply(
		res: ServerResponse,
		model: string,
		message: Record<string, unknown>,
		finish: string,
	): void {
		const body = {
			...this.envelope(model, 'chat.completion'),
			choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		};
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body));
	}

	/** Server-sent events as OpenAI streams them: deltas, then a finish reason, then [DONE]. */
	private stream(
		res: ServerResponse,
		model: string,
		deltas: Array<Record<string, unknown>>,
		finish: string,
	): void {
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const send = (delta: Record<string, unknown>, finishReason: string | null): void => {
			const chunk = {
				...this.envelope(model, 'chat.completion.chunk'),
				choices: [{ index: 0, delta, finish_reason: finishReason }],
			};
			res.write(`data: ${JSON.stringify(chunk)}\n\n`);
		};
		for (const delta of deltas) send(delta, null);
		send({}, finish);
		res.write('data: [DONE]\n\n');
		res.end();
	}

	private streamText(res: ServerResponse, model: string, answer: string): void {
		this.stream(res, model, [{ role: 'assistant', content: '' }, { content: answer }], 'stop');
	}

	private streamToolCalls(
		res: ServerResponse,
		model: string,
		calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>,
	): void {
		const deltas = calls.map((call, index) => ({
			...(index === 0 ? { role: 'assistant', content: null } : {}),
			tool_calls: [{ index, ...call }],
		}));
		this.stream(res, model, deltas, 'tool_calls');
	}

	private fail(res: ServerResponse, status: number, message: string): void {
		this.problems.push(message);
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));
	}
}
