import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameterResourceLocator,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

/** One operation: runs over all input items (so batching operations can group them) and returns output items with pairedItem. */
export type OperationExecute = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

/** What an operation does: its fields and its `execute` (shared makers such as analyticsOperation return this). */
export interface OperationCode {
	description: INodeProperties[];
	execute: OperationExecute;
}

/** One operation file's exports. */
export interface Operation extends OperationCode {
	example: OperationExample;
}

export type ResourceName = 'lead' | 'contentResource' | 'analytics' | 'webhookEndpoint';

/** The objects an example may use, created in the sandbox's demo data by scripts/schemas/cases.ts `prepare`. */
export interface ExampleIds {
	leadId: string;
	leadToDeleteId: string;
	userId: string;
	ctaId: string;
	draftId: string;
	toPublishId: string;
	toArchiveId: string;
	toDeleteId: string;
	webhookId: string;
	webhookToDeleteId: string;
	/** A local HTTP server answering 200, for webhook endpoints. */
	receiverUrl: string;
}

/**
 * One call of an operation that succeeds against the sandbox's demo data, declared next to the operation:
 * `npm run schemas` runs it to write the output schema (`__schema__/<resource>/<operation>.json`), and
 * test/node/wrong-types.test.ts puts each wrong-typed field into it.
 */
export interface OperationExample {
	/** The parameters besides `resource` and `operation`. */
	parameters: (ids: ExampleIds) => INodeParameters;
	/** The input items' JSON (one empty item when not given). */
	input?: (ids: ExampleIds) => IDataObject[];
}

/** A resource locator set By ID. */
export const byId = (value: string): INodeParameterResourceLocator => ({
	__rl: true,
	mode: 'id',
	value,
});
