import type { INodePropertyOptions } from 'n8n-workflow';

/** §6 resource types; the file types are those that may carry an uploaded file. */
export const RESOURCE_TYPES = ['article', 'pdf', 'video', 'ebook', 'whitepaper', 'webinar', 'infographic'] as const;
export const FILE_TYPES = ['pdf', 'video', 'ebook', 'whitepaper', 'infographic'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const RESOURCE_STATUSES = ['draft', 'published', 'archived'] as const;

const TYPE_LABELS: Record<ResourceType, string> = {
	article: 'Article',
	ebook: 'E-Book',
	infographic: 'Infographic',
	pdf: 'PDF',
	video: 'Video',
	webinar: 'Webinar',
	whitepaper: 'Whitepaper',
};

function typeOptions(types: readonly ResourceType[]): INodePropertyOptions[] {
	return [...types]
		.sort((a, b) => TYPE_LABELS[a].localeCompare(TYPE_LABELS[b]))
		.map((value) => ({ name: TYPE_LABELS[value], value }));
}

export const RESOURCE_TYPE_OPTIONS = typeOptions(RESOURCE_TYPES);
export const FILE_TYPE_OPTIONS = typeOptions(FILE_TYPES);

/** §6 field limits. */
export const LIMITS = { title: 200, description: 5000, tags: 20, tag: 50 } as const;

/** §6 upload limits by plan, in bytes. */
export const UPLOAD_LIMITS = { free: 52_428_800, paid: 524_288_000 } as const;
export type UploadLimitSetting = keyof typeof UPLOAD_LIMITS | 'none';
