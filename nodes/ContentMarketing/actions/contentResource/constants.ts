import type { INodePropertyOptions } from 'n8n-workflow';

import { labelledOptions } from '../common.descriptions';
import type { ResourceType } from '../../helpers/vocabulary';
import { FILE_TYPES } from '../../helpers/vocabulary';

const TYPE_LABELS: Record<ResourceType, string> = {
	article: 'Article',
	ebook: 'E-Book',
	infographic: 'Infographic',
	pdf: 'PDF',
	video: 'Video',
	webinar: 'Webinar',
	whitepaper: 'Whitepaper',
};

export const RESOURCE_TYPE_OPTIONS: INodePropertyOptions[] = labelledOptions(TYPE_LABELS);
export const FILE_TYPE_OPTIONS: INodePropertyOptions[] = RESOURCE_TYPE_OPTIONS.filter((option) =>
	(FILE_TYPES as readonly unknown[]).includes(option.value),
);

/** docs/api-contract.md §6 field limits. */
export const LIMITS = { title: 200, description: 5000, tags: 20, tag: 50 } as const;

/** docs/api-contract.md §6 upload limits by plan, in bytes. */
export const UPLOAD_LIMITS = { free: 52_428_800, paid: 524_288_000 } as const;
export const UPLOAD_LIMIT_SETTINGS = ['free', 'paid', 'none'] as const;
export type UploadLimitSetting = (typeof UPLOAD_LIMIT_SETTINGS)[number];
