import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import type { SkillMemory } from './compare';
import type { PackedSkills } from './pack';
import { packMembers, packSkills, unpackMembers, unpackSkills } from './pack';

/** Skill Tiers state in the node's static data; another version (or family) starts over. */
const VERSION = 'skill-tiers-2';

/** The state as the read works with it. */
export interface TiersMemory {
	/** The instant of the last read (epoch ms); undefined before the first. */
	asOf?: number;
	/** When the filters last changed, and the filters before (a stored key): who was in scope then. */
	keyAt?: number;
	keyBefore?: string;
	/** Skills to sweep owed by the time that passed (fractional). */
	sweepCredit: number;
	/** The members in scope as counted at activation: a never-swept skill's cost (sweep.ts). */
	members?: number;
	skills: Map<string, SkillMemory>;
	/** A read the poll's deadline stopped: the next poll goes on with it. */
	reading?: ReadUnderWay;
}

/** A read under way, pinned to its instant; each unit done (sessions page, skill part) leaves it. */
export interface ReadUnderWay {
	/** The read's instant (epoch ms, whole seconds): every request of it is as of this. */
	at: number;
	/** The form it was started for (poll.ts `formOf`): another form starts a new read. */
	form: string;
	/** The next page of the sessions list; undefined once it is read through. */
	sessionsPage?: number;
	/** Skills still to be swept. */
	sweep: Set<string>;
	/** Sweeps under way, a page at a time: next page, members read. */
	paged: Map<string, { page: number; seen: Set<string> }>;
	/** Sweeps whose pages are read: swept once the members still to read (`practised`) are. */
	finishing: Set<string>;
	/** Per skill, the members who practised it still to be read. */
	practised: Map<string, Set<string>>;
}

/** A read under way as stored: instants in seconds, member sets as bitmaps over `m`, then `x`. */
interface StoredRead {
	at: number;
	f: string;
	pg?: number;
	w: string[];
	sp?: Record<string, [number, string]>;
	sf?: string[];
	p: Record<string, string>;
	/** Members still to read that no kept tier names (not in `m`). */
	x?: string[];
}

/** The stored form (JSON): the filter bookkeeping beside the packed skills (pack.ts). */
export interface SkillTiersState extends FamilyState, PackedSkills {
	v: typeof VERSION;
	/** The filters (members, groups, system users) the pairs were read with. */
	key: string;
	asOf?: number;
	keyAt?: number;
	kb?: string;
	credit?: number;
	/** The members in scope as counted at activation (fit.ts). */
	n?: number;
	r?: StoredRead;
}

/** The stored state if it is this family's; a fresh one otherwise. */
export function readState(staticData: IDataObject, key: string): SkillTiersState {
	// No key check: pairs that stay in scope keep their history when the filters are edited.
	return storedState<SkillTiersState>(staticData, VERSION) ?? { v: VERSION, key };
}

/** The stored state as the read works with it; a state built for other filters keeps its pairs. */
export function decode(stored: SkillTiersState, key: string): TiersMemory {
	// Filters edited since the stored read: they changed after its instant, so a member with no row
	// then had no observation before entering (contract point 4: a first tier is an event).
	const same = stored.key === key || stored.asOf === undefined;
	const read = stored.r;
	const table = [...(stored.m ?? []), ...(read?.x ?? [])];
	const members = (bits: string) => unpackMembers(bits, table);
	return {
		asOf: stored.asOf,
		keyAt: same ? stored.keyAt : stored.asOf,
		keyBefore: same ? stored.kb : stored.key,
		sweepCredit: stored.credit ?? 0,
		members: stored.n,
		skills: unpackSkills(stored),
		reading: read && {
			at: read.at * 1000,
			form: read.f,
			sessionsPage: read.pg,
			sweep: new Set(read.w),
			paged: mapOf(read.sp, ([page, bits]) => ({ page, seen: members(bits) })),
			finishing: new Set(read.sf ?? []),
			practised: mapOf(read.p, members),
		},
	};
}

const mapOf = <T, U>(record: Record<string, T> | undefined, value: (stored: T) => U) =>
	new Map(Object.entries(record ?? {}).map(([id, stored]) => [id, value(stored)]));

/** The read under way as stored: only skills of the memory, and those with members to read. */
function encodeRead(
	read: ReadUnderWay,
	skills: Map<string, SkillMemory>,
	members: string[],
): StoredRead {
	const index = new Map(members.map((id, n) => [id, n]));
	const extra: string[] = [];
	const pack = (ids: Set<string>) => {
		for (const id of ids)
			if (!index.has(id)) {
				index.set(id, index.size);
				extra.push(id);
			}
		return packMembers(ids, index);
	};
	const p: Record<string, string> = {};
	for (const [skillId, ids] of read.practised)
		if (skills.has(skillId) && ids.size > 0) p[skillId] = pack(ids);
	const sp: Record<string, [number, string]> = {};
	for (const [skillId, { page, seen }] of read.paged)
		if (skills.has(skillId)) sp[skillId] = [page, pack(seen)];
	const stored: StoredRead = {
		at: Math.floor(read.at / 1000),
		f: read.form,
		w: [...read.sweep].filter((id) => skills.has(id)),
		p,
	};
	if (read.sessionsPage !== undefined) stored.pg = read.sessionsPage;
	if (Object.keys(sp).length) stored.sp = sp;
	const finishing = [...read.finishing].filter((id) => skills.has(id));
	if (finishing.length) stored.sf = finishing;
	if (extra.length) stored.x = extra;
	return stored;
}

export function encode(memory: TiersMemory, key: string): SkillTiersState {
	const state: SkillTiersState = {
		v: VERSION,
		key,
		asOf: memory.asOf,
		credit: Math.round(memory.sweepCredit * 1e6) / 1e6,
		...packSkills(memory.skills),
	};
	if (memory.keyAt !== undefined) state.keyAt = memory.keyAt;
	if (memory.keyBefore !== undefined) state.kb = memory.keyBefore;
	if (memory.members !== undefined) state.n = memory.members;
	if (memory.reading) {
		state.r = encodeRead(memory.reading, memory.skills, state.m ?? []);
		state.continues = true;
	}
	return state;
}
