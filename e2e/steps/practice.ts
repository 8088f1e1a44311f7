/**
 * Practice Results in a real n8n (`--steps=practice`): a trigger with the four events, and the two
 * practice examples (coach alert on a low score, past-due digest) posting to a chat stub on 127.0.0.1,
 * all active at once against a simulator of their own on a manual clock (to move past a due date).
 *
 * Timeline, each change made just after a poll of every workflow (n8n polls once a minute):
 * 1. activation and the first scheduled poll emit nothing from the past;
 * 2. Carla scores 95 on the cold call (her assignment completes), Dev's session is listed unscored;
 * 3. Dev's session is scored 40 (his one-attempt assignment does not pass), the clock passes Erin's due
 *    date;
 * 4. a quiet poll: nothing more.
 * Each event comes out exactly once over all executions; the coach alert is posted once, for Dev's 40
 * only; the digest once, naming Erin's assignment.
 */
import { randomUUID } from 'node:crypto';

import type { Execution } from '../../scripts/n8n/api';
import { ManualClock } from '../../simulator';
import { pollCount, type SuiteContext } from '../context';
import { CheckError, expect, expectEqual, waitFor } from '../harness';
import { ChatStub } from '../support/chatStub';
import { loadExample, setSettings } from '../support/examples';
import { ownSimulator, type OwnSimulator } from '../support/toolResults';
import { POLL_TRIGGER_TYPE } from '../../scripts/n8n/workflows';

const POLL_MS = 75_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TRIGGER = 'Practice Results';
/** Read at every poll, the open assignments too: the test sees each change at the next poll. */
const FAST = { maxReadsPerDay: 0, openReadHours: 0 };

type Json = Record<string, unknown>;

interface Watched {
	name: string;
	id: string;
	trigger: string;
}

/** The trigger's items of one execution. */
function triggerItems(execution: Execution, trigger: string): Json[] {
	const run = execution.data?.resultData.runData[trigger]?.[0];
	return (run?.data?.main?.[0] ?? []).map((i) => i.json);
}

/** `event:id` of a practice item. */
function eventKey(item: Json): string {
	const record = (item.session ?? item.assignment ?? {}) as Json;
	return `${String(item.event)}:${String(record.id)}`;
}

async function assign(
	own: OwnSimulator,
	scenarioId: string,
	body: Json,
): Promise<{ id: string; status: string }> {
	const res = await fetch(`${own.sim.baseUrl}/scenarios/${scenarioId}/assignments`, {
		method: 'POST',
		headers: { authorization: `Bearer ${own.sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const json = (await res.json()) as Json;
	if (res.status !== 200) throw new CheckError(`assigning failed: ${JSON.stringify(json)}`);
	return json as { id: string; status: string };
}

export async function practiceSteps(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	if (!ctx.packageNodeTypes.includes(POLL_TRIGGER_TYPE)) {
		report.skip('practice trigger', `${POLL_TRIGGER_TYPE} is not in the package yet`);
		return;
	}
	let own: OwnSimulator | undefined;
	let chat: ChatStub | undefined;
	const watched: Watched[] = [];
	try {
		const suffix = randomUUID().slice(0, 8);
		const expected: string[] = [];
		let coachPath = '';
		let digestPath = '';
		let carlaSession = '';
		let devSession = '';
		let carlaAssignment = '';
		let devAssignment = '';
		let erinAssignment = '';
		let cold = '';

		const waitForPolls = async (before: number[]): Promise<void> => {
			for (const [i, w] of watched.entries()) {
				await waitFor(
					`n8n's poll #${before[i] + 1} of "${w.name}"`,
					async () => pollCount(ctx, w.name) > before[i],
					{ timeoutMs: POLL_MS, intervalMs: 500 },
				);
			}
			// The poll has started when the log says so; give it a moment to finish and save its execution.
			await new Promise((r) => setTimeout(r, 4000));
		};
		const counts = (): number[] => watched.map((w) => pollCount(ctx, w.name));
		const eventsWorkflow = (): Watched => watched[0];
		const emitted = async (): Promise<string[]> => {
			const w = eventsWorkflow();
			const list = await api.executions(w.id);
			const full = await Promise.all(list.map(async (e) => await api.execution(e.id)));
			return full.flatMap((e) => triggerItems(e, w.trigger)).map(eventKey);
		};

		const ready = await report.step(
			'practice: a trigger with the four events and the two practice examples activated; nothing from the past',
			async () => {
				own = await ownSimulator(ctx, 'practice', { clock: new ManualClock() });
				chat = await ChatStub.start();
				const fx = own.sim.control.fixtures();
				const now = Date.parse(own.sim.control.now());
				cold = fx.scenarios.coldCall.id;
				const due = (ms: number) => new Date(now + ms).toISOString();
				// Open before activation, so the trigger knows them as open.
				carlaAssignment = (
					await assign(own, cold, {
						user_email: 'carla@acme.com',
						due_date: due(14 * DAY),
						rank_min: 'gold',
						attempt_min: 1,
						attempt_max: 3,
					})
				).id;
				devAssignment = (
					await assign(own, cold, {
						user_email: 'dev@acme.com',
						due_date: due(14 * DAY),
						rank_min: 'gold',
						attempt_min: 1,
						attempt_max: 1,
					})
				).id;
				erinAssignment = (
					await assign(own, cold, { user_email: 'erin@acme.com', due_date: due(HOUR) })
				).id;

				const credentials = { workspacePracticeApi: own.credential };
				const name = `e2e practice events ${suffix}`;
				const events = await api.createWorkflow({
					name,
					nodes: [
						{
							id: randomUUID(),
							name: TRIGGER,
							type: POLL_TRIGGER_TYPE,
							typeVersion: 1,
							position: [0, 0],
							parameters: {
								pollTimes: { item: [{ mode: 'everyMinute' }] },
								triggerOn: 'practice',
								practiceEvents: [
									'sessionScored',
									'assignmentCompleted',
									'assignmentDidNotPass',
									'assignmentPastDue',
								],
								practiceFilters: { scenario_ids: [cold] },
								practiceOptions: FAST,
							},
							credentials,
						},
					],
					connections: {},
				});
				watched.push({ name, id: events.id, trigger: TRIGGER });

				// The examples as imported, pointed at the stub and reading at every poll.
				for (const [file, path] of [
					['coach-alert-low-score.json', `/coach-${suffix}`],
					['past-due-digest.json', `/digest-${suffix}`],
				] as const) {
					const example = loadExample(file, credentials);
					example.workflow.name = `${example.workflow.name} ${suffix}`;
					const trigger = example.nodes.find((n) => n.type === POLL_TRIGGER_TYPE);
					if (!trigger) throw new CheckError(`${file} has no practice trigger`);
					trigger.parameters.practiceOptions = FAST;
					setSettings(example.nodes, { chat_webhook_url: chat.baseUrl + path });
					const created = await api.createWorkflow(example.workflow);
					watched.push({ name: example.workflow.name, id: created.id, trigger: trigger.name });
				}
				coachPath = `/coach-${suffix}`;
				digestPath = `/digest-${suffix}`;
				for (const w of watched) await api.activate(w.id);
				// Activation polls once, and n8n keeps no state from that poll: wait for the first scheduled one.
				await waitForPolls(watched.map(() => 1));
				for (const w of watched)
					expectEqual((await api.executions(w.id)).length, 0, `executions of "${w.name}"`);
				return `${watched.length} workflows active, ${counts().join('/')} polls, no execution`;
			},
		);
		if (!ready || !own || !chat) return;
		const sim = own.sim;
		const stub = chat;

		const scored = await report.step(
			'practice: Session Scored and Assignment Completed fire once; an unscored session waits',
			async () => {
				const before = counts();
				carlaSession = sim.control.addSession({
					userEmail: 'carla@acme.com',
					scenario: cold,
					score: 95,
				}).id;
				devSession = sim.control.addSession({ userEmail: 'dev@acme.com', scenario: cold }).id;
				await waitForPolls(before);
				expected.push(`sessionScored:${carlaSession}`, `assignmentCompleted:${carlaAssignment}`);
				const got = await waitFor('the events of Carla’s session', async () => {
					const keys = await emitted();
					return keys.length >= 2 ? keys : undefined;
				});
				expectEqual(got.sort().join(' '), [...expected].sort().join(' '), 'emitted events');
				expectEqual(stub.at(coachPath).length, 0, 'coach alerts for a score of 95');
				return `${got.length} items: ${got.map((k) => k.split(':')[0]).join(', ')}; no coach alert for 95`;
			},
		);
		if (!scored) return;

		const late = await report.step(
			'practice: a late score fires Session Scored and Assignment Did Not Pass once, a passed due date Assignment Past Due; one coach alert, one digest',
			async () => {
				const before = counts();
				sim.control.scoreSession(devSession, 40);
				sim.control.advance(2 * HOUR);
				await waitForPolls(before);
				expected.push(
					`sessionScored:${devSession}`,
					`assignmentDidNotPass:${devAssignment}`,
					`assignmentPastDue:${erinAssignment}`,
				);
				const got = await waitFor('the events of the second change', async () => {
					const keys = await emitted();
					return keys.length >= expected.length ? keys : undefined;
				});
				expectEqual(got.sort().join(' '), [...expected].sort().join(' '), 'emitted events');
				const alerts = await waitFor('the coach alert', async () =>
					stub.at(coachPath).length ? stub.at(coachPath) : undefined,
				);
				expectEqual(alerts.length, 1, 'coach alerts');
				const text = String((alerts[0].body as Json).text ?? '');
				expect(
					text.includes('dev@acme.com') && text.includes('scored 40'),
					`the coach alert does not name Dev's 40: ${JSON.stringify(alerts[0].body)}`,
				);
				const digests = await waitFor('the past-due digest', async () =>
					stub.at(digestPath).length ? stub.at(digestPath) : undefined,
				);
				expectEqual(digests.length, 1, 'past-due digests');
				const digest = String((digests[0].body as Json).text ?? '');
				expect(
					digest.includes('(1)') && digest.includes('erin@acme.com'),
					`the digest does not list Erin's assignment alone: ${JSON.stringify(digests[0].body)}`,
				);
				return `5 events in all, each once; coach alert "${text.slice(0, 70)}…"; digest lists 1 assignment`;
			},
		);
		if (!late) return;

		await report.step('practice: a later poll repeats nothing', async () => {
			const before = counts();
			await waitForPolls(before);
			const got = await emitted();
			expectEqual(got.sort().join(' '), [...expected].sort().join(' '), 'emitted events');
			expectEqual(stub.at(coachPath).length, 1, 'coach alerts');
			expectEqual(stub.at(digestPath).length, 1, 'past-due digests');
			for (const w of watched) {
				const failed = await api.executions(w.id, 'error');
				expectEqual(failed.length, 0, `failed executions of "${w.name}"`);
			}
			return `still ${got.length} events, 1 alert, 1 digest`;
		});
	} finally {
		for (const w of watched) await api.deactivate(w.id).catch(() => undefined);
		await chat?.close();
		await own?.sim.close();
	}
}
