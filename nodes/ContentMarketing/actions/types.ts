import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** One operation: runs over all input items (so batching operations can group them) and returns output items with pairedItem. */
export type OperationExecute = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

export interface Operation {
	description: INodeProperties[];
	execute: OperationExecute;
}

export type ResourceName = 'lead' | 'contentResource' | 'analytics' | 'webhookEndpoint';
