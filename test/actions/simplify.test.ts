/**
 * Simplify (issue 14): on by default, the documented subset per record type, off gives the service's
 * record as it came. One get, one list and Scenario Job → Create By Polling (alone and as a list),
 * through n8n-core's engine against the simulator.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIMPLIFIED_FIELDS } from '../../nodes/shared/output/simplified';
import { bootJobSim, createParams, runJobNode } from '../jobs/jobTestKit';
import { json, rl, useSimulator } from './support';

const sim = useSimulator();

const keysOf = (record: IDataObject) => Object.keys(record);

describe('Session → Get (one record)', () => {
	const sessionId = () => sim.control.store.data.sessions.find((s) => s.score !== null)!.id;

	test('Simplify on by default: only the session subset, values as the service gave them', async () => {
		const raw = await sim.run({
			resource: 'session',
			operation: 'get',
			session: rl(sessionId()),
			simplify: false,
		});
		const simple = await sim.run({
			resource: 'session',
			operation: 'get',
			session: rl(sessionId()),
		});
		expect(simple.error).toBeUndefined();
		const [full] = json(raw.items);
		const [short] = json(simple.items);
		expect(full).toHaveProperty('is_valid_attempt');
		expect(short).not.toHaveProperty('is_valid_attempt');
		expect(keysOf(short)).toEqual(SIMPLIFIED_FIELDS.session.filter((key) => key in full));
		for (const key of keysOf(short)) expect(short[key]).toEqual(full[key]);
		// Same path either way: an expression like {{ $json.user.email }} reads the same value.
		expect((short.user as IDataObject).email).toBe((full.user as IDataObject).email);
	});

	test('what an Include option asked for stays in the simplified record', async () => {
		const { items } = await sim.run({
			resource: 'session',
			operation: 'get',
			session: rl(sessionId()),
			options: { includeTranscript: true, includeEvaluations: true },
		});
		expect(items[0].json).toHaveProperty('transcript');
		expect(items[0].json).toHaveProperty('evaluations');
		expect(items[0].json).not.toHaveProperty('is_valid_attempt');
	});

	test('Continue On Fail: an error item is never simplified', async () => {
		const { items, error } = await sim.run(
			{ resource: 'session', operation: 'get', session: rl('={{ $json.id }}', 'id') },
			{ input: [{ id: sessionId() }, { id: 'no-such-session' }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).not.toHaveProperty('is_valid_attempt');
		expect(items[1].json).toMatchObject({
			error: expect.stringMatching(/not found/i),
			httpCode: '404',
		});
		expect(items[1].json.description).toEqual(expect.any(String));
	});

	test('a Simplify expression that is not true or false fails before any request', async () => {
		const { error } = await sim.run({
			resource: 'session',
			operation: 'get',
			session: rl(sessionId()),
			simplify: '={{ "yes" }}',
		});
		expect(error?.message).toBe('Simplify: must be true or false, got "yes"');
		expect(error?.description).toContain('No request was sent');
		expect(sim.control.requests()).toEqual([]);
	});

	test('Simplify from an expression, per item: "true" and false', async () => {
		const { items } = await sim.run(
			{
				resource: 'session',
				operation: 'get',
				session: rl(sessionId()),
				simplify: '={{ $json.simple }}',
			},
			{ input: [{ simple: 'true' }, { simple: false }] },
		);
		expect(items[0].json).not.toHaveProperty('is_valid_attempt');
		expect(items[1].json).toHaveProperty('is_valid_attempt');
	});
});

describe('Assignment → Get Many (a list)', () => {
	test('one item per row either way; on: each row the assignment subset; off: the rows as the service sent them', async () => {
		const simple = await sim.run({ resource: 'assignment', operation: 'getAll', returnAll: true });
		sim.control.clearRequests();
		const raw = await sim.run({
			resource: 'assignment',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		const [request] = sim.control.requests();
		expect(request.query).toEqual({ page: '1', page_size: '100' });
		const full = json(raw.items);
		const short = json(simple.items);
		expect(short.length).toBeGreaterThan(5);
		expect(short.map((row) => row.id)).toEqual(full.map((row) => row.id));
		expect(full.every((row) => 'program' in row && 'attempt_min' in row && 'rank_min' in row)).toBe(
			true,
		);
		for (const [index, row] of short.entries()) {
			expect(keysOf(row)).toEqual([...SIMPLIFIED_FIELDS.assignment]);
			expect(row).toEqual(
				Object.fromEntries(SIMPLIFIED_FIELDS.assignment.map((key) => [key, full[index][key]])),
			);
		}
		expect(simple.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	test('an operation without large records has no Simplify: Workspace → Get returns the record whole', async () => {
		const { items } = await sim.run({ resource: 'workspace', operation: 'get' });
		expect(keysOf(items[0].json).sort()).toEqual(['created_at', 'id', 'name', 'url_slug']);
	});
});

describe('Scenario Job → Create, By Polling', () => {
	test('on by default: the final job without started_at and duration_seconds; off: the whole job', async () => {
		const { sim: jobs } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } });
		try {
			const simple = await runJobNode(jobs, {
				parameters: createParams(jobs, { waitForCompletion: 'poll' }),
			});
			const raw = await runJobNode(jobs, {
				parameters: createParams(jobs, { waitForCompletion: 'poll', simplify: false }),
			});
			expect(simple.error).toBeUndefined();
			expect(raw.error).toBeUndefined();
			const [short] = json(simple.items);
			const [full] = json(raw.items);
			expect(full).toMatchObject({
				status: 'completed',
				started_at: expect.any(String),
				duration_seconds: expect.any(Number),
			});
			expect(keysOf(short)).toEqual([
				'id',
				'status',
				'scenario',
				'error',
				'created_at',
				'completed_at',
				'is_new',
			]);
			expect(short).toMatchObject({
				status: 'completed',
				is_new: true,
				scenario: { id: expect.any(String), name: expect.any(String) },
			});
		} finally {
			await jobs.close();
		}
	});

	test('a list By Polling (all jobs waited on together) is simplified per item, as the item says', async () => {
		const { sim: jobs } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } });
		try {
			const { items, error } = await runJobNode(jobs, {
				parameters: createParams(jobs, {
					waitForCompletion: 'poll',
					simplify: '={{ $json.simple }}',
				}),
				input: [{ simple: true }, { simple: false }, { simple: true }],
			});
			expect(error).toBeUndefined();
			expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
			expect(items.map((item) => 'started_at' in item.json)).toEqual([false, true, false]);
			expect(items.every((item) => item.json.status === 'completed')).toBe(true);
		} finally {
			await jobs.close();
		}
	});

	test('a bad Simplify on one item of a list fails before any job is created', async () => {
		const { sim: jobs } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } });
		try {
			const { error } = await runJobNode(jobs, {
				parameters: createParams(jobs, {
					waitForCompletion: 'poll',
					simplify: '={{ $json.simple }}',
				}),
				input: [{ simple: true }, { simple: 'maybe' }],
			});
			expect(error?.message).toBe('Simplify: must be true or false, got "maybe"');
			expect(
				jobs.control.requests({ path: '/scenario-studio/*' }).filter((r) => r.method === 'POST'),
			).toHaveLength(0);
		} finally {
			await jobs.close();
		}
	});
});
