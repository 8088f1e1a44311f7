import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../transport';
import { fullName, holds, searchMethod, type SearchMethod } from './searchMethod';

function userOf(row: IDataObject): IDataObject {
	return (row.user as IDataObject | undefined) ?? {};
}

/** "First Last <email>", or the e-mail alone when the member has no name. */
function memberLabel(row: IDataObject): string {
	const user = userOf(row);
	const name = fullName(user);
	return name ? `${name} <${String(user.email)}>` : String(user.email ?? row.id ?? '');
}

/** The member list cannot search: pages are matched here until a screenful (to scroll) or 10 pages. */
function searchMembersBy(valueOf: (row: IDataObject) => string): SearchMethod {
	return searchMethod({
		path: '/workspace/members',
		pageSize: MAX_PAGE_SIZE,
		matches: (row, needle) => holds([fullName(userOf(row)), userOf(row).email], needle),
		fill: { minResults: 20, maxPages: 10 },
		toItem: (row) => ({ name: memberLabel(row), value: valueOf(row) }),
	});
}

export const searchMembers = searchMembersBy((row) => String(userOf(row).email ?? ''));

export const searchMemberIds = searchMembersBy((row) => String(userOf(row).id ?? row.id ?? ''));
