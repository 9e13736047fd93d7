import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import * as getChannels from './getChannels.operation';
import * as getFunnel from './getFunnel.operation';
import * as getLeadTrend from './getLeadTrend.operation';
import * as getOverview from './getOverview.operation';
import * as getResourceAnalytics from './getResourceAnalytics.operation';
import * as getResourceRanking from './getResourceRanking.operation';

export const operations: Record<string, Operation> = {
	getChannels,
	getFunnel,
	getLeadTrend,
	getOverview,
	getResourceAnalytics,
	getResourceRanking,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['analytics'] } },
		options: [
			{
				name: 'Get Channels',
				value: 'getChannels',
				description:
					'Get visits, leads and conversion rate by traffic channel (UTM source) for a period',
				action: 'Get channel analytics',
			},
			{
				name: 'Get Funnel',
				value: 'getFunnel',
				description:
					'Get the content to CTA to lead funnel: count and rate of each step from page view to form submit',
				action: 'Get the conversion funnel',
			},
			{
				name: 'Get Lead Trend',
				value: 'getLeadTrend',
				description: 'Get new leads, conversions and conversion rate by day, week or month',
				action: 'Get the lead trend',
			},
			{
				name: 'Get Overview',
				value: 'getOverview',
				description:
					'Get the account totals for a period (page views, visitors, leads, conversion rate, dwell time) with trends versus the previous period',
				action: 'Get the analytics overview',
			},
			{
				name: 'Get Resource Analytics',
				value: 'getResourceAnalytics',
				description:
					'Get the detailed numbers of one content resource: totals, scroll depth, top channels and trend',
				action: 'Get the analytics of a content resource',
			},
			{
				name: 'Get Resource Ranking',
				value: 'getResourceRanking',
				description:
					'Rank content resources by page views, visitors, leads, conversion rate or dwell time',
				action: 'Get the content resource ranking',
			},
		],
		default: 'getOverview',
	},
	// Each operation's fields, in the order of `operations`.
	...Object.values(operations).flatMap((operation) => operation.description),
];
