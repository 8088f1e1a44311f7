import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../transport';
import { searchMethod, type SearchMethod } from './searchMethod';

/**
 * Member pickers. GET /workspace/members has no search parameter, so each page is matched on name and
 * e-mail here; a search reads pages until it has a screenful of matches or the list ends (at most 10
 * pages, 1,000 members, per call; scrolling reads on). Without a search term, one page per "load more".
 */

/** A screenful: enough rows for n8n's list to scroll, which is what makes it load more. */
const SEARCH_MIN_RESULTS = 20;
/** At most this many API requests per search call (the workspace allows 60 a minute). */
const SEARCH_MAX_PAGES = 10;

function userOf(row: IDataObject): IDataObject {
	return (row.user as IDataObject | undefined) ?? {};
}

/** "First Last <email>", or the e-mail alone when the member has no name. */
function memberLabel(row: IDataObject): string {
	const user = userOf(row);
	const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
	return name ? `${name} <${String(user.email)}>` : String(user.email ?? row.id ?? '');
}

function matchesMember(row: IDataObject, needle: string): boolean {
	const user = userOf(row);
	const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
	return [name, user.email].some((text) =>
		String(text ?? '')
			.toLowerCase()
			.includes(needle),
	);
}

function searchMembersBy(valueOf: (row: IDataObject) => string): SearchMethod {
	return searchMethod({
		path: '/workspace/members',
		pageSize: MAX_PAGE_SIZE,
		matches: matchesMember,
		fill: { minResults: SEARCH_MIN_RESULTS, maxPages: SEARCH_MAX_PAGES },
		toItem: (row) => ({ name: memberLabel(row), value: valueOf(row) }),
	});
}

/** Members, picked as their e-mail (for everything the API takes by e-mail). */
export const searchMembers = searchMembersBy((row) => String(userOf(row).email ?? ''));

/** Members, picked as their user ID (for the filters the API takes by user ID). */
export const searchMemberIds = searchMembersBy((row) => String(userOf(row).id ?? row.id ?? ''));
