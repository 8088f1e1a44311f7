import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiList } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { itemRef } from '../../../shared/values';
import { locator, readLocator } from '../../../shared/fields/locator';

/** A scenario's page in the web app: https://<workspace>.app.exec.com/scenarios/<slug>. */
export const SCENARIO_URL_REGEX =
	'^https?://[^/\\s]+/scenarios/([A-Za-z0-9][A-Za-z0-9_-]*)/?(?:[?#].*)?$';
const SCENARIO_URL = new RegExp(SCENARIO_URL_REGEX);
/** The field's name in the form and in errors; the editor's "let the model define" key is made from it. */
const LABEL = 'Scenario ID or URL';

/** The Scenario picker; `acceptsSlug`: the endpoint takes a slug too (the analytics ones). */
export function scenarioLocator(acceptsSlug: boolean): INodeProperties {
	return locator({
		displayName: LABEL,
		name: 'scenario',
		required: true,
		description: acceptsSlug
			? 'The roleplay scenario: pick it from the list, or give its ID or slug, or the URL of its page'
			: 'The roleplay scenario: pick it from the list, or give its ID, or the URL of its page',
		list: { searchListMethod: 'searchScenarios' },
		modes: [
			{
				displayName: acceptsSlug ? 'By ID or Slug' : 'By ID',
				name: 'id',
				type: 'string',
				placeholder: acceptsSlug
					? 'e.g. s1c2e3n4a5r6 or discovery-call-it-director'
					: 'e.g. s1c2e3n4a5r6',
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'e.g. https://acme-corp.app.exec.com/scenarios/discovery-call-it-director',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: SCENARIO_URL_REGEX,
							errorMessage: 'Not a scenario URL (…/scenarios/<slug>)',
						},
					},
				],
				extractValue: { type: 'regex', regex: SCENARIO_URL_REGEX },
			},
		],
	});
}

/** Slug from a scenario URL; a NodeOperationError naming the field when it is not one. */
export function slugFromUrl(ctx: IExecuteFunctions, itemIndex: number, url: string): string {
	const rule = `must be a scenario URL ending in /scenarios/<slug>, got "${url}"`;
	return validator(ctx, itemIndex).matches(LABEL, url.trim(), SCENARIO_URL, rule)[1];
}

/** ID, or a URL's slug in any mode (a model may put a URL in By ID; no ID looks like one). */
export function readScenarioRef(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { ref: string; isSlug: boolean } {
	const { mode, value } = readLocator(ctx, itemIndex, 'scenario', LABEL);
	if (mode === 'url' || SCENARIO_URL.test(value))
		return { ref: slugFromUrl(ctx, itemIndex, value), isSlug: true };
	return { ref: value, isSlug: false };
}

/** The ID, for endpoints that take no slug: a URL's slug is looked up in the list. */
export async function readScenarioId(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const { ref, isSlug } = readScenarioRef(ctx, itemIndex);
	if (!isSlug) return ref;
	const rows = await apiList<IDataObject>(
		ctx,
		'/scenarios',
		{ include_archived: true },
		{ returnAll: true, itemIndex, until: ({ data }) => data.some((row) => row.slug === ref) },
	);
	const found = rows.find((row) => row.slug === ref);
	if (found) return String(found.id);
	throw new NodeOperationError(
		ctx.getNode(),
		`${LABEL}: no scenario has the slug "${ref}" from the URL`,
		{
			itemIndex,
			description: `${itemRef(itemIndex)}: check the scenario URL, or pick the scenario from the list.`,
		},
	);
}

/** Path segment for a scenario reference; slugs and IDs are URL-safe but input may not be. */
export const scenarioPath = (ref: string, rest = ''): string =>
	`/scenarios/${encodeURIComponent(ref)}${rest}`;
