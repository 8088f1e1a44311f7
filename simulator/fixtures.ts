/** Named handles on the seeded data, for tests that need a known id, e-mail or slug. */
import { buildSeed, DEFAULT_SEED } from './state/seed';
import type { SeedData } from './state/seed';

interface Named {
	id: string;
	name: string;
}
interface Person {
	id: string;
	email: string;
	first_name: string;
	last_name: string;
	role: string;
}

export interface Fixtures {
	workspace: { id: string; name: string; url_slug: string };
	/** The user the API key acts as (page versions published through the API name this user). */
	apiUser: Person;
	/** Current members in listing order (joined first, first); includes the system user. */
	members: Person[];
	/** Member whose e-mail is on the operator domain (@exec.com). */
	systemUser: Person;
	/** Left the workspace: not a member, still in session history. */
	formerUser: Person;
	groups: { sales: Named; customerSuccess: Named; leadership: Named };
	skills: { discovery: Named; objection: Named; procurement: Named; negotiation: Named };
	collections: { procurement: Named; onboarding: Named; negotiation: Named; empty: Named };
	programs: { q1Onboarding: Named; salesBootcamp: Named };
	scenarios: {
		/** Workspace-visible, many sessions, skills discovery + procurement. */
		procurementDiscovery: Named & { slug: string };
		discoveryCall: Named & { slug: string };
		/** Private; shared with dev (view) and the Customer Success group (share). */
		pricingObjection: Named & { slug: string };
		/** No sessions at all. */
		coldCall: Named & { slug: string };
		/** Archived: hidden unless include_archived=true. */
		archived: Named & { slug: string };
	};
	folders: { sales: Named; objections: Named; onboarding: Named; private: Named; files: Named };
	pages: {
		/** Published, 3 versions (created, ai_generation, manual_edit), 2 sources. */
		published: Named;
		/** Published with pending draft edits; visibility global. */
		publishedWithDraft: Named;
		/** Draft, never published (version null); visibility private. */
		draftNeverPublished: Named;
		/** Status draft after an earlier publication (version 1). */
		draftPreviouslyPublished: Named;
		archived: Named;
		/** Published; its only version is AI-generated (created_by null); private. */
		aiGenerated: Named;
	};
	sources: {
		uploadReady: Named;
		urlReady: Named & { url: string };
		notionReady: Named;
		googleDriveProcessing: Named;
		guruPending: Named;
		pageReady: Named;
		integrationFailed: Named;
		videoReady: Named;
		archivedUrl: Named & { url: string };
	};
	contexts: Named[];
	/** Assignment ids by status. */
	assignments: Record<
		'not_started' | 'in_progress' | 'completed' | 'past_due' | 'did_not_pass',
		string
	>;
}

export function fixturesFromSeed(d: SeedData): Fixtures {
	const person = (email: string): Person => {
		const u = d.users.find((x) => x.email === email);
		if (!u) throw new Error(`fixtures: no user ${email}`);
		return {
			id: u.id,
			email: u.email,
			first_name: u.first_name,
			last_name: u.last_name,
			role: u.role,
		};
	};
	const named = (list: Array<{ id: string; name?: string; title?: string }>, i: number): Named => ({
		id: list[i].id,
		name: list[i].name ?? list[i].title ?? '',
	});
	const scen = (slug: string): Named & { slug: string } => {
		const s = d.scenarios.find((x) => x.slug === slug);
		if (!s) throw new Error(`fixtures: no scenario ${slug}`);
		return { id: s.id, name: s.name, slug: s.slug };
	};
	const byStatus = (status: string): string => {
		const a = d.assignments.find((x) => x.status === status);
		if (!a) throw new Error(`fixtures: no assignment ${status}`);
		return a.id;
	};
	const src = (i: number) => named(d.sources, i);
	return {
		workspace: { id: d.workspace.id, name: d.workspace.name, url_slug: d.workspace.urlSlug },
		apiUser: person('jane@acme.com'),
		members: d.users
			.filter((u) => u.member)
			.sort((a, b) => a.joinedAt - b.joinedAt)
			.map((u) => person(u.email)),
		systemUser: person('support@exec.com'),
		formerUser: person('hal@acme.com'),
		groups: {
			sales: named(d.groups, 0),
			customerSuccess: named(d.groups, 1),
			leadership: named(d.groups, 2),
		},
		skills: {
			discovery: named(d.skills, 0),
			objection: named(d.skills, 1),
			procurement: named(d.skills, 2),
			negotiation: named(d.skills, 3),
		},
		collections: {
			procurement: named(d.collections, 0),
			onboarding: named(d.collections, 1),
			negotiation: named(d.collections, 2),
			empty: named(d.collections, 3),
		},
		programs: { q1Onboarding: named(d.programs, 0), salesBootcamp: named(d.programs, 1) },
		scenarios: {
			procurementDiscovery: scen('procurement-discovery'),
			discoveryCall: scen('discovery-call-with-it-director'),
			pricingObjection: scen('pricing-objection-drill'),
			coldCall: scen('cold-call-opener'),
			archived: scen('legacy-upsell-call'),
		},
		folders: {
			sales: named(d.folders, 0),
			objections: named(d.folders, 1),
			onboarding: named(d.folders, 2),
			private: named(d.folders, 3),
			files: named(d.folders, 4),
		},
		pages: {
			published: named(d.pages, 0),
			publishedWithDraft: named(d.pages, 1),
			draftNeverPublished: named(d.pages, 2),
			draftPreviouslyPublished: named(d.pages, 3),
			archived: named(d.pages, 4),
			aiGenerated: named(d.pages, 5),
		},
		sources: {
			uploadReady: src(0),
			urlReady: { ...src(1), url: d.sources[1].externalUrl ?? '' },
			notionReady: src(2),
			googleDriveProcessing: src(3),
			guruPending: src(4),
			pageReady: src(5),
			integrationFailed: src(6),
			videoReady: src(7),
			archivedUrl: { ...src(8), url: d.sources[8].externalUrl ?? '' },
		},
		contexts: d.contexts.map((c) => ({ id: c.id, name: c.title })),
		assignments: {
			not_started: byStatus('not_started'),
			in_progress: byStatus('in_progress'),
			completed: byStatus('completed'),
			past_due: byStatus('past_due'),
			did_not_pass: byStatus('did_not_pass'),
		},
	};
}

export function fixturesOf(store: { seed: number; size: object }): Fixtures {
	// Rebuilt from the seed so runtime changes never shift the named handles.
	return fixturesFromSeed(buildSeed(store.seed, store.size));
}

/** Fixtures of the default seed (what startSimulator() serves unless `seed` is given). */
export const SEED: Fixtures = fixturesFromSeed(buildSeed(DEFAULT_SEED));
