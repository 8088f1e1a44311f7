/** n8n evaluates `subtitle` with `$parameter` only: the names travel in it as a flat table (no "}}"). */

function table(names: Record<string, string>): string {
	return `(${JSON.stringify(names)})`;
}

/** "Create: Scenario Job": `names` maps "<resource>:<operation>" to the words. */
export function resourceOperationSubtitle(names: Record<string, string>): string {
	const key = '$parameter["resource"] + ":" + $parameter["operation"]';
	return `={{ ${table(names)}[${key}] || ($parameter["operation"] + ": " + $parameter["resource"]) }}`;
}

/** "Job: Completed, Failed": a multi-select's values by name, after `lead` when given. */
export function multiOptionSubtitle(
	parameter: string,
	names: Record<string, string>,
	lead = '',
): string {
	const words = multiOptionWords(parameter, names);
	return `={{ ${lead === '' ? '' : `${JSON.stringify(lead)} + `}${words} }}`;
}

function multiOptionWords(parameter: string, names: Record<string, string>): string {
	const values = `($parameter[${JSON.stringify(parameter)}] || [])`;
	return `${values}.map((value) => ${table(names)}[value] || value).join(", ")`;
}

/** A multi-select's words, from the parameter the `switch` option chooses (its default first). */
export function switchedMultiOptionSubtitle(
	switchParameter: string,
	choices: Array<[value: string, parameter: string, names: Record<string, string>]>,
): string {
	const [fallback, ...others] = choices;
	let expression = multiOptionWords(fallback[1], fallback[2]);
	for (const [value, parameter, names] of others) {
		const test = `$parameter[${JSON.stringify(switchParameter)}] === ${JSON.stringify(value)}`;
		expression = `(${test} ? ${multiOptionWords(parameter, names)} : ${expression})`;
	}
	return `={{ ${expression} }}`;
}
