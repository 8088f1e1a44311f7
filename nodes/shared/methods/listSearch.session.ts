import type { IDataObject } from 'n8n-workflow';

import { fullName, holds, searchMethod } from './searchMethod';

function person(user: IDataObject | undefined): string {
	return fullName(user) || String(user?.email ?? 'unknown user');
}

/** What a session is known by: who practiced which scenario, when. */
function label(row: IDataObject): string {
	const scenario = row.scenario as IDataObject | undefined;
	const when =
		typeof row.created_at === 'string' ? row.created_at.slice(0, 16).replace('T', ' ') : '';
	return [person(row.user as IDataObject | undefined), scenario?.name, when]
		.filter(Boolean)
		.join(' · ');
}

/** Session picker, newest first; a search matches the person's name or e-mail and the scenario name. */
export const searchSessions = searchMethod({
	path: '/sessions',
	toItem: (row) => ({ name: label(row), value: String(row.id) }),
	matches: (row, needle) => {
		const user = row.user as IDataObject | undefined;
		const scenario = row.scenario as IDataObject | undefined;
		return holds([person(user), user?.email, scenario?.name, scenario?.slug], needle);
	},
});
