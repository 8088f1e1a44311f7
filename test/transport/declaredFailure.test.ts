/**
 * Issue 57: a failure is declared as n8n-workflow documents it, with `failure` in the error's options
 * (an error already built, a 429 whose wait is known, is built again with it, which hands back the
 * same error), and n8n-workflow 1.x, which has no such option and drops it, still shows the property.
 */
import type { Failure, INode, JsonObject } from 'n8n-workflow';

type Errors = typeof import('../../nodes/shared/transport/errors');

const node: INode = {
	id: '1',
	name: 'Workspace Practice',
	type: 'n8n-nodes-workspace-practice.workspacePractice',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** errors.ts loaded against an n8n-workflow whose NodeApiError records its options (and, as 1.x, drops `failure`). */
function errorsWith(asV1: boolean): { errors: Errors; options: Array<{ failure?: Failure }> } {
	const options: Array<{ failure?: Failure }> = [];
	let errors: Errors | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => {
			const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
			class NodeApiError extends actual.NodeApiError {
				constructor(n: INode, response: JsonObject, opts: { failure?: Failure } = {}) {
					options.push(opts);
					// n8n-workflow 1.x: the same re-wrap, no `failure` option.
					super(n, response, asV1 ? { ...opts, failure: undefined } : opts);
				}
			}
			return { ...actual, NodeApiError };
		});
		errors = jest.requireActual<Errors>('../../nodes/shared/transport/errors');
	});
	jest.dontMock('n8n-workflow');
	return { errors: errors as Errors, options };
}

describe.each([
	['n8n-workflow 2.x', false],
	['n8n-workflow 1.x (no `failure` option)', true],
])('%s', (_, asV1) => {
	test('401 and 5xx: `failure` passed in the options, and on the error', () => {
		const { errors, options } = errorsWith(asV1);
		const unauthorized = errors.serviceError(node, 401, {}, 'GET /members');
		expect(options.at(-1)?.failure).toEqual({ cause: 'credential-invalid' });
		expect(unauthorized.failure).toEqual({ cause: 'credential-invalid' });
		const failed = errors.serviceError(node, 503, {}, 'GET /members');
		expect(options.at(-1)?.failure).toEqual({ cause: 'temporarily-unavailable' });
		expect(failed.failure).toEqual({ cause: 'temporarily-unavailable' });
		expect(errors.serviceError(node, 404, {}, 'GET /members').failure).toBeUndefined();
	});

	test('network and not-the-service errors: `failure` in the options', () => {
		const { errors, options } = errorsWith(asV1);
		const lost = errors.networkError(
			node,
			'127.0.0.1:9',
			Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
			{
				write: false,
				baseUrl: 'http://127.0.0.1:9/rest/v1',
			},
		);
		expect(options.at(-1)?.failure).toEqual({ cause: 'temporarily-unavailable' });
		expect(lost.failure).toEqual({ cause: 'temporarily-unavailable' });
		const foreign = errors.notTheServiceError(
			node,
			'http://localhost:5678/rest/v1',
			404,
			'a web page (HTML)',
		);
		expect(options.at(-1)?.failure).toEqual({ cause: 'configuration-invalid' });
		expect(foreign.failure).toEqual({ cause: 'configuration-invalid' });
	});

	test('declared on a built error: built again with `failure`, the same error handed back', () => {
		const { errors, options } = errorsWith(asV1);
		const limited = errors.serviceError(node, 429, {}, 'GET /members');
		const declared = errors.declareFailure(limited, { cause: 'rate-limited', retryAfterMs: 5000 });
		expect(declared).toBe(limited);
		expect(options.at(-1)?.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 5000 });
		expect(declared.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 5000 });
		expect(declared.message).toMatch(/^Rate limit reached \[429\]/);
	});
});
