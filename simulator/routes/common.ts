/** Filters shared by several list endpoints. */
import { invalidValue } from '../http';
import { csv, isEmail } from '../query';
import { SYSTEM_EMAIL_DOMAIN } from '../state/seed';
import type { Store } from '../state/store';
import type { UserRec } from '../state/types';

/**
 * user_ids ∪ user_emails as a set of user ids; undefined when neither is given.
 * Unknown ids or e-mails simply match nothing.
 */
export function userFilter(store: Store, query: Record<string, string>): Set<string> | undefined {
	const ids = csv(query, 'user_ids');
	const emails = csv(query, 'user_emails');
	if (!ids && !emails) return undefined;
	const out = new Set<string>(ids ?? []);
	for (const email of emails ?? []) {
		if (!isEmail(email))
			throw invalidValue(`user_emails contains an invalid e-mail address "${email}"`);
		const user = store.userByEmail(email);
		if (user) out.add(user.id);
	}
	return out;
}

/** Users in any of group_ids; undefined when not given. */
export function groupFilter(store: Store, query: Record<string, string>): Set<string> | undefined {
	const groupIds = csv(query, 'group_ids');
	if (!groupIds) return undefined;
	return new Set(
		store.data.users.filter((u) => u.groupIds.some((g) => groupIds.includes(g))).map((u) => u.id),
	);
}

/** Both filters apply together (a row must pass each one that was given). */
export function peopleFilter(
	store: Store,
	query: Record<string, string>,
): (userId: string) => boolean {
	const users = userFilter(store, query);
	const groups = groupFilter(store, query);
	return (id) => (!users || users.has(id)) && (!groups || groups.has(id));
}

export function isSystemUser(user: UserRec | undefined): boolean {
	return !!user && user.email.toLowerCase().endsWith(SYSTEM_EMAIL_DOMAIN);
}
