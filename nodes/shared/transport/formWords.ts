/** Messages name API fields; told as "Member (user_email) …" the user finds the field. */

/** API field → the label of the form field that fills it (the same in every operation). */
export const FORM_LABELS: Readonly<Record<string, string>> = {
	user_email: 'Member',
	user_emails: 'Members',
	user_ids: 'Members',
	assigner_email: 'Assigner',
	due_date: 'Due Date',
	attempt_min: 'Minimum Attempts',
	attempt_max: 'Maximum Attempts',
	rank_min: 'Minimum Rank',
	custom_message: 'Custom Message',
	prompt: 'Prompt',
	context: 'Context',
	callback_url: 'Callback URL',
	callback_headers: 'Callback Headers',
	request_id: 'Request ID Value',
	scenario_slug: 'Remix From Scenario',
	url: 'URL',
	title: 'Title',
	content: 'Content',
	status: 'Status',
	visibility: 'Visibility',
	folder_id: 'Folder',
	folder_ids: 'Folder Names or IDs',
	skill_ids: 'Skill Names or IDs',
	group_ids: 'Group Names or IDs',
	collection_ids: 'Collection Names or IDs',
	program_ids: 'Program IDs',
	scenario_ids: 'Scenario IDs',
	start_date: 'Start Date',
	end_date: 'End Date',
	owner_email: 'Owner',
	visible_to_email: 'Visible To',
	updated_after: 'Updated After',
	updated_before: 'Updated Before',
	page_size: 'Limit',
	query: 'Search',
	type: 'Type',
	rank: 'Rank',
};

/**
 * The message with each API field as "Label (api_name)", and the labels found. A one-word name (`url`)
 * counts only where it leads the message, so ordinary words are left alone.
 */
export function inFormWords(message: string): { text: string; labels: string[] } {
	const labels: string[] = [];
	const label = (name: string) => {
		const found = FORM_LABELS[name];
		if (found && !labels.includes(found)) labels.push(found);
		return found ? `${found} (${name})` : name;
	};
	let text = message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => label(name));
	text = text.replace(/^([a-z]+)\b(?! \()/, (name) => label(name));
	return { text, labels };
}

/** A sentence without its closing full stop, so another can follow after ". " without "..". */
export function withoutFullStop(text: string): string {
	return text.replace(/[\s.]+$/, '');
}
