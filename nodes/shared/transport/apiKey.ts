/** Keys come pasted with quotes, whitespace or `Bearer `: what is unambiguous is cleaned. */

/** A lowercase word, `_live_`, then 40 letters or digits (the spec's keys start `svc_live_`). */
const API_KEY_PATTERN = /^[a-z]+_live_[A-Za-z0-9]{40}$/;

const API_KEY_FORM =
	'a lowercase word, "_live_" and 40 letters or digits, for example svc_live_ followed by 40 characters';

/** The credential's `authenticate` expression cleans the same way (a test checks they agree). */
const KEY_CLEANUP = /^[\s"']*(bearer\s+)?[\s"']*|[\s"']*$/gi;

export function cleanApiKey(raw: unknown): string {
	return String(raw ?? '').replace(KEY_CLEANUP, '');
}

/** Returns the cleaned key, or a sentence saying what is wrong with it (never the key itself). */
export function checkApiKey(raw: unknown): { key: string } | { problem: string } {
	const key = cleanApiKey(raw);
	if (key === '') return { problem: `The API key is empty. Expected ${API_KEY_FORM}.` };
	if (!API_KEY_PATTERN.test(key)) {
		return {
			problem: `The API key does not have the expected form (${key.length} characters after cleaning). Expected ${API_KEY_FORM}.`,
		};
	}
	return { key };
}

/** Base URL without trailing slashes; it must be the full base ending in /rest/v1. */
export function checkBaseUrl(raw: unknown): { baseUrl: string } | { problem: string } {
	const baseUrl = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
	let parsed: URL;
	try {
		parsed = new URL(baseUrl);
	} catch {
		return {
			problem: `The Base URL "${baseUrl}" is not a valid URL. Expected for example https://host/rest/v1.`,
		};
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return {
			problem: `The Base URL must start with http:// or https://, got "${parsed.protocol}".`,
		};
	}
	if (!parsed.pathname.endsWith('/rest/v1')) {
		return { problem: `The Base URL must be the full base ending in /rest/v1, got "${baseUrl}".` };
	}
	return { baseUrl };
}
