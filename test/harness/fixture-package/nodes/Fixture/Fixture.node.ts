import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, VersionedNodeType } from 'n8n-workflow';

class FixtureVersion implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription, version: number) {
		this.description = {
			...baseDescription,
			version,
			defaults: { name: 'Fixture' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'fixtureApi', required: true }],
			properties: [{ displayName: 'Path', name: 'path', type: 'string', default: '/fixture' }],
		};
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('fixtureApi');
		const version = this.getNode().typeVersion;
		const response: unknown = await this.helpers.httpRequestWithAuthentication.call(
			this,
			'fixtureApi',
			{
				url: `${baseUrl}${this.getNodeParameter('path', 0) as string}`,
				json: true,
			},
		);
		return [[{ json: { version, response: response as object }, pairedItem: { item: 0 } }]];
	}
}

export class Fixture extends VersionedNodeType {
	constructor() {
		const baseDescription: INodeTypeBaseDescription = {
			displayName: 'Fixture',
			name: 'fixture',
			group: ['transform'],
			description: 'Versioned node loaded from a package',
			defaultVersion: 2,
		};
		super(
			{ 1: new FixtureVersion(baseDescription, 1), 2: new FixtureVersion(baseDescription, 2) },
			baseDescription,
		);
	}
}
