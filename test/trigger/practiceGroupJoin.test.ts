/**
 * Practice Results with Filters → Groups, members joining, leaving and changing groups (the spec-only
 * oracle's GROUP_JOIN story, here on n8n-core's engine step by step). The service filters sessions by
 * today's groups, so a member who joins brings her sessions of the window into the Session Scored list
 * unseen: they were scored before (history, or scored while she was outside the group), not scores.
 * Every event is chosen, so the completions' read (no Groups filter) runs beside it and tells them apart.
 */
import { useRig } from './setup';
import { practiceEventsOf, practiceTrigger, PRACTICE_EVENTS } from './practiceSetup';

const rig = useRig();

const control = () => rig.sim.control;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Today's groups of a member (what the service filters sessions by). */
function moveTo(email: string, groupIds: string[]): void {
	const user = control().store.data.users.find((u) => u.email === email);
	if (!user) throw new Error(`no user ${email}`);
	user.groupIds = [...groupIds];
}

async function pollOk(trigger: Awaited<ReturnType<typeof practiceTrigger>>) {
	const outcome = await trigger.poll();
	expect(outcome.error).toBeUndefined();
	return practiceEventsOf(outcome.items).map((e) => [e.event, e.id]);
}

const practise = (email: string, scenario: string, score: number | null) =>
	control().addSession({ userEmail: email, scenario, score }).id;

test('a member joins the group: her sessions from before the activation and from outside the group are not sent, her next one is', async () => {
	const fx = control().fixtures();
	const sales = fx.groups.sales.id;
	const scenario = fx.scenarios.coldCall.id;
	practise('erin@acme.com', scenario, 70); // Erin is in Customer Success: history, outside the group
	const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, { group_ids: [sales] });
	control().advance(30 * MINUTE);
	practise('erin@acme.com', scenario, 75); // scored while outside the group
	// Dev (Sales) is listed unscored now and scored after Erin joins: a score, sent.
	const late = practise('dev@acme.com', scenario, null);
	expect(await pollOk(trigger)).toEqual([]);
	control().advance(30 * MINUTE);
	moveTo('erin@acme.com', [sales]);
	control().scoreSession(late, 90);
	expect(await pollOk(trigger)).toEqual([['sessionScored', late]]);
	control().advance(30 * MINUTE);
	const next = practise('erin@acme.com', scenario, 88);
	expect(await pollOk(trigger)).toEqual([['sessionScored', next]]);
	expect(await pollOk(trigger)).toEqual([]);
});

test('a member leaves the group, practises, changes groups and comes back: only what she scored inside it is sent', async () => {
	const fx = control().fixtures();
	const sales = fx.groups.sales.id;
	const cs = fx.groups.customerSuccess.id;
	const scenario = fx.scenarios.coldCall.id;
	const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, { group_ids: [sales] });
	control().advance(30 * MINUTE);
	const inside = practise('carla@acme.com', scenario, 80);
	expect(await pollOk(trigger)).toEqual([['sessionScored', inside]]);
	moveTo('carla@acme.com', []);
	control().advance(30 * MINUTE);
	practise('carla@acme.com', scenario, 60);
	expect(await pollOk(trigger)).toEqual([]);
	moveTo('carla@acme.com', [cs]);
	control().advance(30 * MINUTE);
	practise('carla@acme.com', scenario, 65);
	expect(await pollOk(trigger)).toEqual([]);
	moveTo('carla@acme.com', [cs, sales]);
	control().advance(30 * MINUTE);
	expect(await pollOk(trigger)).toEqual([]);
	const back = practise('carla@acme.com', scenario, 95);
	expect(await pollOk(trigger)).toEqual([['sessionScored', back]]);
});

test('a member joins a group whose newest session is hours older than anyone else’s: her older session is not sent', async () => {
	const fx = control().fixtures();
	const sales = fx.groups.sales.id;
	const scenario = fx.scenarios.coldCall.id;
	practise('dev@acme.com', scenario, 80); // the group's newest session
	control().advance(HOUR);
	practise('erin@acme.com', scenario, 70); // inside the group's window, before anyone's
	control().advance(7 * HOUR);
	practise('gina@acme.com', scenario, 50); // anyone's newest: Erin's is 7 h before it
	const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, { group_ids: [sales] });
	moveTo('erin@acme.com', [sales]);
	control().advance(30 * MINUTE);
	expect(await pollOk(trigger)).toEqual([]);
});
