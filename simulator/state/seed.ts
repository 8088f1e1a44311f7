/**
 * The deterministic seeded workspace. Same seed number, same data, same ids.
 * Timestamps are fixed relative to SEED_NOW (the ManualClock default start).
 */
import { Rng, slugify } from './random';
import type {
	AssignmentRec,
	CollectionRec,
	ContextRec,
	FolderRec,
	GroupRec,
	ObservationRec,
	PageRec,
	PageVersionRec,
	ProgramRec,
	ScenarioRec,
	SessionRec,
	SkillRec,
	SourceRec,
	UserRec,
	WorkspaceRec,
} from './types';

export const SEED_NOW = Date.parse('2026-03-16T12:00:00.000Z');
export const DEFAULT_SEED = 42;
/** Operator domain: members whose e-mail ends with it are system users. */
export const SYSTEM_EMAIL_DOMAIN = '@exec.com';

const DAY = 86_400_000;
const ago = (days: number, hours = 0): number => SEED_NOW - days * DAY - hours * 3_600_000;

export interface DataSize {
	scenarios?: number;
	members?: number;
	pages?: number;
	sources?: number;
}

export interface SeedData {
	workspace: WorkspaceRec;
	users: UserRec[];
	groups: GroupRec[];
	skills: SkillRec[];
	collections: CollectionRec[];
	programs: ProgramRec[];
	scenarios: ScenarioRec[];
	assignments: AssignmentRec[];
	sessions: SessionRec[];
	observations: ObservationRec[];
	contexts: ContextRec[];
	folders: FolderRec[];
	sources: SourceRec[];
	pages: PageRec[];
}

const PEOPLE: Array<[string, string, string, UserRec['role']]> = [
	['Jane', 'Smith', 'jane@acme.com', 'admin'],
	['Bob', 'Jones', 'bob@acme.com', 'staff'],
	['Carla', 'Diaz', 'carla@acme.com', 'member'],
	['Dev', 'Patel', 'dev@acme.com', 'member'],
	['Erin', 'Kim', 'erin@acme.com', 'member'],
	['Frank', 'Osei', 'frank@acme.com', 'member'],
	['Gina', 'Rossi', 'gina@acme.com', 'member'],
	['Exec', 'Support', 'support@exec.com', 'staff'],
];

export function buildSeed(seed: number = DEFAULT_SEED, size: DataSize = {}): SeedData {
	const rng = new Rng(seed);
	const workspace: WorkspaceRec = {
		id: rng.shortId(),
		name: 'Acme Corp',
		urlSlug: 'acme-corp',
		createdAt: Date.parse('2024-01-15T10:30:00.000Z'),
		active: true,
	};

	const groups: GroupRec[] = ['Sales Team', 'Customer Success', 'Leadership'].map((name, i) => ({
		id: rng.shortId(),
		name,
		createdAt: Date.parse('2024-02-01T09:00:00.000Z') + i * DAY,
	}));
	const [sales, cs, lead] = groups.map((g) => g.id);
	const groupOf: Record<string, string[]> = {
		'jane@acme.com': [sales, lead],
		'bob@acme.com': [sales, lead],
		'carla@acme.com': [sales],
		'dev@acme.com': [sales],
		'erin@acme.com': [cs],
		'frank@acme.com': [cs],
		'gina@acme.com': [cs],
	};

	const users: UserRec[] = PEOPLE.map(([first, last, email, role], i) => ({
		id: rng.shortId(),
		email,
		first_name: first,
		last_name: last,
		member: true,
		role,
		joinedAt: Date.parse('2024-01-15T10:30:00.000Z') + i * DAY,
		groupIds: groupOf[email] ?? [],
	}));
	// Someone who left: absent from members, present in session history.
	users.push({
		id: rng.shortId(),
		email: 'hal@acme.com',
		first_name: 'Hal',
		last_name: 'Former',
		member: false,
		role: 'member',
		joinedAt: Date.parse('2024-03-01T10:00:00.000Z'),
		groupIds: [],
	});
	for (let i = 1; i <= (size.members ?? 0); i++) {
		const n = String(i).padStart(5, '0');
		users.push({
			id: rng.shortId(),
			email: `user${n}@acme.com`,
			first_name: 'User',
			last_name: n,
			member: true,
			role: 'member',
			joinedAt: Date.parse('2025-01-01T00:00:00.000Z') + i * 60_000,
			groupIds: i % 2 ? [sales] : [cs],
		});
	}
	const u = (email: string): string => {
		const found = users.find((x) => x.email === email);
		if (!found) throw new Error(`seed: no user ${email}`);
		return found.id;
	};

	const skills: SkillRec[] = [
		['Discovery Questions', 'Asking open questions that uncover needs.'],
		['Objection Handling', 'Answering pushback without losing the deal.'],
		['Procurement Selling', 'Navigating purchasing processes and stakeholders.'],
		['Negotiation', 'Trading value for concessions.'],
	].map(([name, description], i) => ({
		id: rng.uuid(),
		name,
		slug: slugify(name),
		description,
		createdAt: Date.parse('2026-01-10T09:00:00.000Z') + i * DAY,
	}));
	const [skDiscovery, skObjection, skProcurement, skNegotiation] = skills.map((s) => s.id);

	const collections: CollectionRec[] = [
		['Procurement Scenarios', 'Practice for procurement conversations.'],
		['Onboarding', 'First-week practice for new hires.'],
		['Negotiation Drills', null],
		['Archive Picks', 'Kept for reference; currently empty.'],
	].map(([name, description], i) => ({
		id: rng.shortId(),
		name: name as string,
		slug: slugify(name as string),
		description,
		createdAt: Date.parse('2026-01-10T09:00:00.000Z') + i * DAY,
	}));
	const [colProc, colOnb, colNeg] = collections.map((c) => c.id);

	const programs: ProgramRec[] = [
		{ id: rng.shortId(), name: 'Q1 Onboarding' },
		{ id: rng.shortId(), name: 'Sales Bootcamp' },
	];

	const objective = (goal: string, avoid: string[]): string =>
		`${goal}\n\n##### Outcomes to Avoid:\n${avoid.map((a) => `- ${a}`).join('\n')}`;
	const scenarioSpecs: Array<Partial<ScenarioRec> & { name: string }> = [
		{
			name: 'Procurement Discovery',
			ownerId: u('jane@acme.com'),
			visibility: 'workspace',
			difficulty: 'medium',
			skillIds: [skDiscovery, skProcurement],
			collectionIds: [colProc],
		},
		{
			name: 'Discovery Call with IT Director',
			ownerId: u('bob@acme.com'),
			visibility: 'workspace',
			difficulty: 'hard',
			skillIds: [skObjection],
			collectionIds: [colOnb],
		},
		{
			name: 'Pricing Objection Drill',
			ownerId: u('carla@acme.com'),
			visibility: 'private',
			difficulty: 'easy',
			skillIds: [skObjection],
			collectionIds: [colNeg],
			userShares: { [u('dev@acme.com')]: 'view' },
			groupShares: { [cs]: 'share' },
		},
		{
			name: 'Renewal Negotiation',
			ownerId: u('jane@acme.com'),
			visibility: 'workspace',
			difficulty: 'very_hard',
			skillIds: [skNegotiation],
			collectionIds: [colNeg, colProc],
		},
		{
			name: 'Cold Call Opener',
			ownerId: u('dev@acme.com'),
			visibility: 'private',
			difficulty: 'easy',
			skillIds: [],
			collectionIds: [colOnb],
		},
		{
			name: 'Executive Briefing',
			ownerId: u('erin@acme.com'),
			visibility: 'workspace',
			difficulty: 'custom',
			skillIds: [skDiscovery],
			collectionIds: [],
			language: 'German',
		},
		{
			name: 'Legacy Upsell Call',
			ownerId: u('bob@acme.com'),
			visibility: 'workspace',
			difficulty: 'medium',
			skillIds: [],
			collectionIds: [colOnb],
			archived: true,
		},
		{
			name: 'Support Escalation',
			ownerId: u('support@exec.com'),
			visibility: 'workspace',
			difficulty: 'hard',
			skillIds: [skObjection],
			collectionIds: [],
			context: null,
			objective: null,
			description: null,
		},
	];
	const scenarios: ScenarioRec[] = scenarioSpecs.map((s, i) => ({
		id: rng.uuid(),
		description: `Practice: ${s.name.toLowerCase()}.`,
		slug: slugify(s.name),
		difficulty: 'medium',
		context: `Background for ${s.name}: a mid-size buyer with an active evaluation.`,
		objective: objective(`Reach a clear next step in "${s.name}".`, [
			'Discounting before discovery',
			'Skipping the budget conversation',
		]),
		language: 'English',
		visibility: 'workspace',
		ownerId: null,
		createdAt: Date.parse('2025-06-01T10:00:00.000Z') + i * 7 * DAY,
		updatedAt: Date.parse('2025-06-01T10:00:00.000Z') + i * 7 * DAY + 3 * DAY,
		skillIds: [],
		collectionIds: [],
		archived: false,
		userShares: {},
		groupShares: {},
		...s,
	}));
	const memberIds = users.filter((x) => x.member).map((x) => x.id);
	for (let i = 1; i <= (size.scenarios ?? 0); i++) {
		const n = String(i).padStart(5, '0');
		const created = Date.parse('2025-01-01T00:00:00.000Z') + i * 60_000;
		scenarios.push({
			id: rng.uuid(),
			name: `Generated Scenario ${n}`,
			description: `Generated scenario number ${i}.`,
			slug: `generated-scenario-${n}`,
			difficulty: (['easy', 'medium', 'hard', 'very_hard'] as const)[i % 4],
			context: 'Generated context.',
			objective: objective('Generated objective.', ['Generated pitfall']),
			language: 'English',
			visibility: i % 3 === 0 ? 'private' : 'workspace',
			ownerId: memberIds[i % memberIds.length],
			createdAt: created,
			updatedAt: created,
			skillIds: [skills[i % skills.length].id],
			collectionIds: i % 5 === 0 ? [colProc] : [],
			archived: i % 50 === 0,
			userShares: {},
			groupShares: {},
		});
	}
	const sc = (slug: string): string => {
		const found = scenarios.find((x) => x.slug === slug);
		if (!found) throw new Error(`seed: no scenario ${slug}`);
		return found.id;
	};

	// Sessions: [email, slug, scores (null = abandoned), days ago of the first, spacing days, program]
	const sessionPlan: Array<[string, string, Array<number | null>, number, number]> = [
		['jane@acme.com', 'procurement-discovery', [88, 92, 95, 94], 40, 12],
		['bob@acme.com', 'procurement-discovery', [70, 78, 82], 30, 10],
		['carla@acme.com', 'procurement-discovery', [50, null, 58, 62], 28, 7],
		['dev@acme.com', 'procurement-discovery', [30, 42, 45], 25, 8],
		['erin@acme.com', 'procurement-discovery', [85, 90], 12, 5],
		['support@exec.com', 'procurement-discovery', [99, 99, 99], 9, 2],
		['hal@acme.com', 'procurement-discovery', [60, 65, 71], 200, 20],
		['jane@acme.com', 'discovery-call-with-it-director', [80], 6, 0],
		['bob@acme.com', 'discovery-call-with-it-director', [65, 85], 20, 10],
		['gina@acme.com', 'discovery-call-with-it-director', [91, 93, 97], 18, 6],
		['erin@acme.com', 'pricing-objection-drill', [74, 79, 76], 15, 4],
		['frank@acme.com', 'renewal-negotiation', [null], 3, 0],
	];
	const sessions: SessionRec[] = [];
	const observations: ObservationRec[] = [];
	for (const [email, slug, scores, firstAgo, spacing] of sessionPlan) {
		const scenario = scenarios.find((x) => x.slug === slug);
		if (!scenario) throw new Error(`seed: no scenario ${slug}`);
		scores.forEach((score, i) => {
			const createdAt = ago(firstAgo - i * spacing, 2 + i);
			const rec: SessionRec = {
				id: rng.uuid(),
				userId: u(email),
				scenarioId: scenario.id,
				score,
				durationSeconds: score === null ? 41 : 180 + rng.int(0, 420),
				valid: score !== null,
				programId: email === 'jane@acme.com' ? programs[0].id : null,
				createdAt,
			};
			sessions.push(rec);
			if (score !== null) {
				for (const skillId of scenario.skillIds)
					observations.push({ userId: rec.userId, skillId, score, at: createdAt, kind: 'session' });
			}
		});
	}
	// Calls count as observations too.
	observations.push({
		userId: u('gina@acme.com'),
		skillId: skDiscovery,
		score: 77,
		at: ago(4),
		kind: 'call',
	});
	observations.push({
		userId: u('frank@acme.com'),
		skillId: skDiscovery,
		score: 58,
		at: ago(100),
		kind: 'call',
	});
	observations.push({
		userId: u('frank@acme.com'),
		skillId: skDiscovery,
		score: 52,
		at: ago(70),
		kind: 'call',
	});
	observations.push({
		userId: u('frank@acme.com'),
		skillId: skDiscovery,
		score: 96,
		at: ago(1),
		kind: 'call',
	});

	const A = (
		email: string,
		slug: string,
		status: AssignmentRec['status'],
		bestScore: number | null,
		attemptCount: number,
		attemptMin: number | null,
		attemptMax: number | null,
		rankMin: AssignmentRec['rankMin'],
		programId: string | null,
		createdAgo: number,
	): AssignmentRec => ({
		id: rng.shortId(),
		userId: u(email),
		scenarioId: sc(slug),
		status,
		dueDate: ago(createdAgo - 21),
		bestScore,
		bestRank: bestScore === null ? null : rankFor(bestScore),
		attemptCount,
		attemptMin,
		attemptMax,
		rankMin,
		programId,
		createdAt: ago(createdAgo),
		assignerId: u('jane@acme.com'),
		customMessage: null,
	});
	const assignments: AssignmentRec[] = [
		A(
			'jane@acme.com',
			'procurement-discovery',
			'completed',
			95,
			4,
			1,
			null,
			'silver',
			programs[0].id,
			45,
		),
		A(
			'bob@acme.com',
			'discovery-call-with-it-director',
			'in_progress',
			85,
			2,
			3,
			5,
			'gold',
			null,
			25,
		),
		A(
			'carla@acme.com',
			'procurement-discovery',
			'past_due',
			62,
			3,
			3,
			null,
			'silver',
			programs[0].id,
			40,
		),
		A(
			'dev@acme.com',
			'procurement-discovery',
			'did_not_pass',
			45,
			3,
			1,
			3,
			'bronze',
			programs[1].id,
			30,
		),
		A(
			'erin@acme.com',
			'pricing-objection-drill',
			'not_started',
			null,
			0,
			1,
			null,
			null,
			programs[1].id,
			2,
		),
		A(
			'gina@acme.com',
			'discovery-call-with-it-director',
			'completed',
			97,
			3,
			2,
			null,
			'gold',
			null,
			20,
		),
	];
	assignments[4].dueDate = null;

	const contexts: ContextRec[] = [
		'Q2 pricing update',
		'Acme product overview',
		'Competitor landscape',
	].map((title, i) => ({
		id: rng.shortId(),
		title,
		createdAt: Date.parse('2026-02-01T09:00:00.000Z') + i * DAY,
	}));

	const F = (
		name: string,
		emoji: string | null,
		parentId: string | null,
		visibility: FolderRec['visibility'],
		i: number,
	): FolderRec => ({
		id: rng.uuid(),
		name,
		emoji,
		parentId,
		visibility,
		createdAt: Date.parse('2026-01-05T09:00:00.000Z') + i * DAY,
		updatedAt: Date.parse('2026-02-05T09:00:00.000Z') + i * DAY,
	});
	const fSales = F('Sales', '💼', null, 'workspace', 0);
	const fObjections = F('Objections', '🛡️', fSales.id, 'workspace', 1);
	const fOnboarding = F('Onboarding', '🎓', null, 'workspace', 2);
	const fPrivate = F('Private notes', null, null, 'private', 3);
	const fFiles = F('File Attachments', '📎', null, 'global', 4);
	const folders = [fSales, fObjections, fOnboarding, fPrivate, fFiles];

	const S = (
		p: Partial<SourceRec> & Pick<SourceRec, 'title' | 'sourceType' | 'status'>,
		i: number,
	): SourceRec => {
		const createdAt = Date.parse('2026-02-10T09:00:00.000Z') + i * DAY;
		const ready = p.status === 'ready';
		return {
			id: rng.uuid(),
			contentFormat: ready ? 'markdown' : null,
			tokenCount: ready ? 800 + i * 137 : null,
			hasImages: false,
			externalUrl: null,
			summary: ready ? `Summary of ${p.title}.` : null,
			cover: '',
			folderIds: [fFiles.id],
			createdById: u('jane@acme.com'),
			createdAt,
			updatedAt: createdAt + 5 * 60_000,
			processedAt: ready ? createdAt + 5 * 60_000 : null,
			content: ready ? `# ${p.title}\n\nExtracted text of ${p.title}.` : null,
			archived: false,
			...p,
		};
	};
	const sources: SourceRec[] = [
		S(
			{
				title: 'Q2 pricing deck.pdf',
				sourceType: 'upload',
				status: 'ready',
				contentFormat: 'plain_text',
			},
			0,
		),
		S(
			{
				title: 'Competitor pricing page',
				sourceType: 'url',
				status: 'ready',
				externalUrl: 'https://example.com/pricing',
				folderIds: [fSales.id],
			},
			1,
		),
		S(
			{
				title: 'Sales wiki',
				sourceType: 'notion',
				status: 'ready',
				externalUrl: 'https://www.notion.so/acme/sales-wiki',
				folderIds: [fSales.id, fObjections.id],
			},
			2,
		),
		S(
			{
				title: 'Territory sheet',
				sourceType: 'google_drive',
				status: 'processing',
				externalUrl: 'https://drive.google.com/file/d/territory',
			},
			3,
		),
		S(
			{
				title: 'Guru card: refunds',
				sourceType: 'guru',
				status: 'pending',
				externalUrl: 'https://app.getguru.com/card/refunds',
			},
			4,
		),
		S(
			{
				title: 'Pricing objection guide (page)',
				sourceType: 'page',
				status: 'ready',
				folderIds: [],
			},
			5,
		),
		S(
			{
				title: 'Call recording export',
				sourceType: 'integration',
				status: 'failed',
				createdById: null,
			},
			6,
		),
		S(
			{
				title: 'Demo video',
				sourceType: 'upload',
				status: 'ready',
				contentFormat: 'video',
				hasImages: true,
				cover: 'covers/demo-video.png',
			},
			7,
		),
		S(
			{
				title: 'Old blog post',
				sourceType: 'url',
				status: 'ready',
				externalUrl: 'https://example.com/old-blog',
				archived: true,
			},
			8,
		),
	];

	const V = (
		version: number,
		title: string,
		content: string,
		changeType: PageVersionRec['changeType'],
		by: string | null,
		at: number,
	): PageVersionRec => ({
		version,
		title,
		content,
		changeType,
		createdById: by,
		createdAt: at,
		updatedAt: at,
	});
	let seq = 0;
	const P = (p: Partial<PageRec> & Pick<PageRec, 'title' | 'status'>, i: number): PageRec => {
		const createdAt = Date.parse('2026-02-20T09:00:00.000Z') + i * DAY;
		const versions = p.versions ?? [];
		const last = versions[versions.length - 1];
		return {
			id: rng.uuid(),
			visibility: 'workspace',
			ownerId: u('jane@acme.com'),
			folderIds: [],
			skillIds: [],
			sourceIds: [],
			cover: '',
			createdAt,
			updatedAt: last ? last.updatedAt : createdAt,
			publishedAt: last ? last.createdAt : null,
			draft: null,
			versions,
			seq: ++seq,
			...p,
		};
	};
	const jane = u('jane@acme.com');
	const bob = u('bob@acme.com');
	const pages: PageRec[] = [
		P(
			{
				title: 'Pricing objection guide',
				status: 'published',
				folderIds: [fSales.id, fObjections.id],
				skillIds: [skObjection],
				sourceIds: [sources[0].id, sources[1].id],
				versions: [
					V(
						1,
						'Pricing objection guide',
						'## Pricing objections\n\nFirst cut.',
						'created',
						jane,
						ago(20),
					),
					V(
						2,
						'Pricing objection guide',
						'## Pricing objections\n\nExpanded by the assistant.',
						'ai_generation',
						null,
						ago(15),
					),
					V(
						3,
						'Pricing objection guide',
						'## Pricing objections\n\nLead with value before discounts.',
						'manual_edit',
						bob,
						ago(10),
					),
				],
			},
			0,
		),
		P(
			{
				title: 'Discovery call checklist',
				status: 'published',
				visibility: 'global',
				ownerId: bob,
				folderIds: [fSales.id],
				skillIds: [skDiscovery],
				sourceIds: [sources[2].id],
				versions: [
					V(
						1,
						'Discovery call checklist',
						'- Ask about the current process',
						'created',
						bob,
						ago(18),
					),
				],
				draft: {
					title: 'Discovery call checklist (v2)',
					content: '- Ask about the current process\n- Ask about budget',
				},
			},
			1,
		),
		P(
			{
				title: 'Onboarding week one',
				status: 'draft',
				visibility: 'private',
				ownerId: u('carla@acme.com'),
				folderIds: [fOnboarding.id],
				draft: { title: 'Onboarding week one', content: 'Day 1: shadow a call.' },
			},
			2,
		),
		P(
			{
				title: 'Negotiation playbook',
				status: 'draft',
				folderIds: [fOnboarding.id],
				skillIds: [skNegotiation, skProcurement],
				versions: [V(1, 'Negotiation playbook', 'Trade, never give.', 'created', jane, ago(12))],
			},
			3,
		),
		P(
			{
				title: 'Old territory plan',
				status: 'archived',
				ownerId: u('dev@acme.com'),
				folderIds: [fSales.id],
				versions: [
					V(1, 'Territory plan', 'North and south.', 'created', u('dev@acme.com'), ago(60)),
					V(2, 'Old territory plan', 'Superseded.', 'manual_edit', u('dev@acme.com'), ago(50)),
				],
			},
			4,
		),
		P(
			{
				title: 'Competitor notes',
				status: 'published',
				visibility: 'private',
				ownerId: u('erin@acme.com'),
				folderIds: [fPrivate.id],
				sourceIds: [sources[5].id],
				versions: [
					V(
						1,
						'Competitor notes',
						'Generated summary of competitors.',
						'ai_generation',
						null,
						ago(8),
					),
				],
			},
			5,
		),
	];
	pages[4].updatedAt = ago(49);
	for (let i = 1; i <= (size.pages ?? 0); i++) {
		const at = Date.parse('2025-06-01T00:00:00.000Z') + i * 60_000;
		pages.push({
			...P(
				{
					title: `Generated page ${String(i).padStart(5, '0')}`,
					status: 'published',
					versions: [V(1, `Generated page ${i}`, 'Generated.', 'created', jane, at)],
				},
				0,
			),
			createdAt: at,
		});
	}
	for (let i = 1; i <= (size.sources ?? 0); i++) {
		sources.push(
			S(
				{
					title: `Generated source ${String(i).padStart(5, '0')}`,
					sourceType: 'url',
					status: 'ready',
					externalUrl: `https://example.com/generated/${i}`,
				},
				0,
			),
		);
	}

	return {
		workspace,
		users,
		groups,
		skills,
		collections,
		programs,
		scenarios,
		assignments,
		sessions,
		observations,
		contexts,
		folders,
		sources,
		pages,
	};
}

export function rankFor(score: number): 'gold' | 'silver' | 'bronze' | 'unranked' {
	if (score >= 90) return 'gold';
	if (score >= 75) return 'silver';
	if (score >= 50) return 'bronze';
	return 'unranked';
}
