import type { IBinaryKeyData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validator } from '../validate';

/** MIME types read as page text: Markdown and plain text. */
const TEXT_MIME_TYPES = ['text/markdown', 'text/x-markdown', 'text/plain'];
/** Extensions trusted when the MIME type says nothing (missing or application/octet-stream). */
const TEXT_EXTENSIONS = ['md', 'markdown', 'txt'];
const GENERIC_MIME_TYPES = ['', 'application/octet-stream'];

export function binaryInputField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the Markdown or plain-text file',
		description:
			"Binary property of the input item holding the file (Markdown .md/.markdown or plain text .txt), as n8n's Read Files from Disk or an HTTP Request gives it",
		...overrides,
	};
}

export function binaryOutputField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		hint: 'The name of the output binary field to put the file in',
		description: 'Binary property of the output item that receives the file',
		...overrides,
	};
}

export function readOutputField(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data');
	return validator(ctx, itemIndex).required('Put Output File in Field', value);
}

function extensionOf(fileName: string | undefined, fileExtension: string | undefined): string {
	if (fileExtension) return fileExtension.toLowerCase().replace(/^\./, '');
	const match = /\.([^./\\]+)$/.exec(fileName ?? '');
	return match ? match[1].toLowerCase() : '';
}

/** A Markdown or plain-text file's text, BOM dropped; a generic MIME type is judged by extension. */
export async function readTextFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	propertyName: string,
	emptyRefusal?: string,
): Promise<string> {
	const check = validator(ctx, itemIndex);
	const property = check.required(field, propertyName);
	const item = ctx.getInputData()[itemIndex];
	if (!item?.binary?.[property]) {
		const present = Object.keys(item?.binary ?? {});
		check.fail(
			field,
			`the input item has no binary property "${property}"${present.length > 0 ? ` (it has: ${present.join(', ')})` : ' (it has no files)'}`,
		);
	}
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const mimeType = (binary.mimeType ?? '').split(';')[0].trim().toLowerCase();
	const extension = extensionOf(binary.fileName, binary.fileExtension);
	const accepted = GENERIC_MIME_TYPES.includes(mimeType)
		? TEXT_EXTENSIONS.includes(extension)
		: TEXT_MIME_TYPES.includes(mimeType);
	const name = binary.fileName ? ` "${binary.fileName}"` : '';
	if (!accepted) {
		check.fail(
			field,
			`the file${name} in binary property "${property}" has MIME type "${mimeType || 'none'}"; only Markdown (text/markdown, .md) or plain text (text/plain, .txt) can become page content`,
		);
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
	if (emptyRefusal !== undefined && text.trim() === '') {
		check.fail(
			field,
			`the file${name} in binary property "${property}" is empty${buffer.length > 0 ? ' (only whitespace)' : ''}. ${emptyRefusal}`,
		);
	}
	return text;
}

/** A file name for a title: characters file systems refuse become "-", at most 100 characters. */
export function fileNameFor(title: unknown, fallback: string, extension: string): string {
	const base = [...String(title ?? '')]
		// What Windows, macOS and Linux refuse in a file name, and control characters.
		.map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '-' : char))
		.join('')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 100)
		.replace(/^\.+/, '');
	return `${base || fallback}.${extension}`;
}

export async function textFileBinary(
	ctx: IExecuteFunctions,
	property: string,
	text: string,
	fileName: string,
	mimeType: string,
): Promise<IBinaryKeyData> {
	const data = await ctx.helpers.prepareBinaryData(Buffer.from(text, 'utf8'), fileName, mimeType);
	return { [property]: data };
}
