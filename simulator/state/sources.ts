/** Knowledge Hub source ingest (spec 3.2): URL de-duplication and timed extraction. */
import type { Store } from './store';
import type { SourceRec } from './types';

/** A URL containing this text makes extraction fail. */
export const SOURCE_FAIL_MARKER = 'fail-extraction';

export interface SourceTimings {
	pendingMs: number;
	processingMs: number;
	hold?: boolean;
}

export interface NewSource {
	title: string;
	url: string;
	cover: string;
	folderIds: string[];
	createdById: string;
}

/** Live (non-archived) URL source with exactly this URL. Archived sources do not block a re-ingest. */
export function findByUrl(store: Store, url: string): SourceRec | undefined {
	return store.data.sources.find((s) => !s.archived && s.externalUrl === url);
}

export function createSource(
	store: Store,
	input: NewSource,
	now: number,
	t: SourceTimings,
): SourceRec {
	const src: SourceRec = {
		id: store.rng.uuid(),
		title: input.title,
		sourceType: 'url',
		status: 'pending',
		contentFormat: null,
		tokenCount: null,
		hasImages: false,
		externalUrl: input.url,
		summary: null,
		cover: input.cover,
		folderIds: input.folderIds,
		createdById: input.createdById,
		createdAt: now,
		updatedAt: now,
		processedAt: null,
		content: null,
		archived: false,
		extraction: {
			pendingUntil: now + t.pendingMs,
			readyAt: now + t.pendingMs + t.processingMs,
			fail: input.url.includes(SOURCE_FAIL_MARKER),
			hold: t.hold ?? false,
		},
	};
	store.data.sources.push(src);
	return src;
}

/** Moves extraction along its schedule up to `now`. */
export function advanceSource(src: SourceRec, now: number): void {
	const x = src.extraction;
	if (!x || x.hold || src.archived) return;
	if (src.status === 'pending' && now >= x.pendingUntil) {
		src.status = 'processing';
		src.updatedAt = x.pendingUntil;
	}
	if (src.status === 'processing' && now >= x.readyAt)
		settleSource(src, x.readyAt, x.fail ? 'failed' : 'ready');
}

export function settleSource(src: SourceRec, at: number, outcome: 'ready' | 'failed'): void {
	src.extraction = undefined;
	src.updatedAt = at;
	if (outcome === 'failed') {
		src.status = 'failed';
		src.processedAt = null;
		return;
	}
	const text = `# ${src.title}\n\nText extracted from ${src.externalUrl ?? 'the source'}. It covers pricing, objections and next steps.`;
	src.status = 'ready';
	src.processedAt = at;
	src.contentFormat = 'markdown';
	src.content = text;
	src.tokenCount = text.split(/\s+/).length;
	src.summary = `Summary of ${src.title}.`;
}
