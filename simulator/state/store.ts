/** The in-memory workspace: seeded records plus everything created at runtime. */
import { Rng } from './random';
import { buildSeed, type DataSize, type SeedData } from './seed';
import type { JobStatus } from '../schemas';
import type {
	AssignmentChange,
	JobRec,
	PageChange,
	ScoreChange,
	StudioSessionRec,
	UserRec,
} from './types';

/** How finely the service writes timestamps. The deployed service writes whole seconds. */
export type TimestampPrecision = 'second' | 'millisecond';

/** Terminal job statuses; the spec's state table promises a callback for completed only. */
export type TerminalStatus = Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>;

export class Store {
	data!: SeedData;
	jobs!: Map<string, JobRec>;
	studioSessions!: Map<string, StudioSessionRec>;
	/** Every assignment status change since the seed (creations included), oldest first. */
	assignmentLog!: AssignmentChange[];
	/** Every session graded at runtime (scoreSession), oldest first; the seed's history is not in it. */
	scoreLog!: ScoreChange[];
	/** Every page change at runtime (created, updated, published, archived), oldest first. */
	pageLog!: PageChange[];
	/** Ids for records created at runtime; restarted on reset so runs repeat exactly. */
	rng!: Rng;
	/** Monotonic change counter for pages (tie-breaker between equal timestamps). */
	seq = 0;
	/** Settings, kept across reset(). */
	precision: TimestampPrecision = 'second';
	callbackStatuses: readonly TerminalStatus[] = ['completed'];

	/**
	 * A time as the service stores and shows it: cut to whole seconds at second precision, so rows
	 * changed within one second share one timestamp (and list filters compare those values).
	 */
	stamp(ms: number): number {
		return this.precision === 'second' ? Math.floor(ms / 1000) * 1000 : ms;
	}

	constructor(
		readonly seed: number,
		readonly size: DataSize,
	) {
		this.reset();
	}

	reset(): void {
		this.data = buildSeed(this.seed, this.size);
		this.jobs = new Map();
		this.studioSessions = new Map();
		this.assignmentLog = [];
		this.scoreLog = [];
		this.pageLog = [];
		this.rng = new Rng(this.seed * 7919 + 1);
		this.seq = Math.max(0, ...this.data.pages.map((p) => p.seq));
	}

	nextSeq(): number {
		return ++this.seq;
	}

	/** Users by id, rebuilt when the users array is replaced or grows (a workspace of thousands). */
	private usersIndex?: { users: UserRec[]; length: number; byId: Map<string, UserRec> };

	userById(id: string): UserRec | undefined {
		const users = this.data.users;
		let index = this.usersIndex;
		if (!index || index.users !== users || index.length !== users.length) {
			index = { users, length: users.length, byId: new Map(users.map((u) => [u.id, u])) };
			this.usersIndex = index;
		}
		const user = index.byId.get(id);
		// A user whose id was changed in place is found the slow way (and the index rebuilt next time).
		if (user && user.id === id) return user;
		const found = users.find((u) => u.id === id);
		if (found) this.usersIndex = undefined;
		return found;
	}

	userByEmail(email: string): UserRec | undefined {
		const e = email.toLowerCase();
		return this.data.users.find((u) => u.email.toLowerCase() === e);
	}

	/** A current workspace member by e-mail (people who left do not count). */
	memberByEmail(email: string): UserRec | undefined {
		const user = this.userByEmail(email);
		return user && user.member ? user : undefined;
	}

	members(): UserRec[] {
		return this.data.users.filter((u) => u.member);
	}

	/** The user the API key acts as: the admin who created it (first admin member). */
	apiUser(): UserRec {
		const admin = this.data.users.find((u) => u.member && u.role === 'admin');
		if (!admin) throw new Error('store: no admin member');
		return admin;
	}

	scenarioById(id: string) {
		return this.data.scenarios.find((s) => s.id === id);
	}

	scenarioByIdOrSlug(idOrSlug: string) {
		return this.data.scenarios.find((s) => s.id === idOrSlug || s.slug === idOrSlug);
	}

	scenarioBySlug(slug: string) {
		return this.data.scenarios.find((s) => s.slug === slug);
	}

	skill(id: string) {
		return this.data.skills.find((s) => s.id === id);
	}

	folder(id: string) {
		return this.data.folders.find((f) => f.id === id);
	}

	source(id: string) {
		return this.data.sources.find((s) => s.id === id);
	}

	page(id: string) {
		return this.data.pages.find((p) => p.id === id);
	}
}
