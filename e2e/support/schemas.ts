/**
 * What a model is offered, checked the same way whether it came from the agent (the `tools` of a chat
 * completion request) or from an MCP client's tools/list: every expected tool is there, with a
 * description that says more than the node's name, and every parameter has a description (the second
 * argument of its $fromAI()).
 */
import { CheckError } from '../harness';

export interface OfferedSchema {
	name: string;
	description?: string;
	schema?: {
		properties?: Record<string, { type?: string | string[]; description?: string }>;
		required?: string[];
	};
}

/** Returns a one-line summary; throws a CheckError listing every problem found. */
export function checkOfferedSchemas(offered: OfferedSchema[], expected: string[]): string {
	const problems: string[] = [];
	const byName = new Map(offered.map((tool) => [tool.name, tool]));
	let parameters = 0;
	for (const name of expected) {
		const tool = byName.get(name);
		if (!tool) {
			problems.push(`${name}: not offered (offered: ${[...byName.keys()].join(', ')})`);
			continue;
		}
		const description = (tool.description ?? '').trim();
		if (description.length < 25) problems.push(`${name}: description too thin: "${description}"`);
		for (const [key, property] of Object.entries(tool.schema?.properties ?? {})) {
			parameters += 1;
			if (!(property.description ?? '').trim())
				problems.push(`${name}.${key}: parameter without a description`);
		}
	}
	if (problems.length) throw new CheckError(`what the model sees:\n${problems.join('\n')}`);
	return `${expected.length} tools, ${parameters} parameters, each described`;
}
