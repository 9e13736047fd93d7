import type { WebhookContext } from 'n8n-core';
import type {
	IHttpRequestMethods,
	INode,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Node, NodeHelpers, UnexpectedError } from 'n8n-workflow';

import type { WebhookRequest, WebhookResponse } from './webhook-http';
import { isParsableContentType, parseBody } from './webhook-http';

/**
 * The parts of n8n's WebhookService (packages/cli/src/webhooks/webhook.service.ts) and
 * webhook-helpers' executeWebhook a single trigger needs.
 */

/** WebhookService.getNodeWebhooks: the node's webhooks, path and method resolved (no restart webhooks). */
export function getNodeWebhooks(
	workflow: Workflow,
	node: INode,
	nodeType: INodeType,
	additionalData: IWorkflowExecuteAdditionalData,
	isTest: boolean,
): IWebhookData[] {
	const resolve = (value: string | boolean | undefined, fallback?: boolean | string) =>
		workflow.expression.getSimpleParameterValue(node, value, 'internal', {}, undefined, fallback);

	const webhooks: IWebhookData[] = [];
	for (const description of nodeType.description.webhooks ?? []) {
		const rawPath = resolve(description.path);
		const restartWebhook = resolve(description.restartWebhook, false) === true;
		if (rawPath === undefined || restartWebhook) continue;
		const nodePath = rawPath.toString().replace(/^\//, '').replace(/\/$/, '');
		const isFullPath = resolve(description.isFullPath, false) === true;
		const path = NodeHelpers.getNodeWebhookPath(
			workflow.id,
			node,
			nodePath,
			isFullPath,
			restartWebhook,
		);
		const methods = String(resolve(description.httpMethod, 'GET'));
		for (const httpMethod of methods.split(',').map((method) => method.trim())) {
			if (httpMethod === '') continue;
			webhooks.push({
				httpMethod: httpMethod as IHttpRequestMethods,
				node: node.name,
				path,
				webhookDescription: description,
				workflowId: workflow.id,
				workflowExecuteAdditionalData: additionalData,
				webhookId: node.webhookId,
				isTest,
			});
		}
	}
	return webhooks;
}

/** WebhookService.runWebhook. */
export async function runWebhook(
	nodeType: INodeType,
	context: WebhookContext,
): Promise<IWebhookResponseData> {
	if (nodeType.webhook === undefined)
		throw new UnexpectedError('Node does not have any webhooks defined');
	if (nodeType instanceof Node) return await nodeType.webhook(context);
	return await nodeType.webhook.call(context);
}

/** webhook-helpers' parseRequestBody, except that multipart/form-data bodies stay unparsed. */
export async function parseRequestBody(
	req: WebhookRequest,
	node: INode,
	workflow: Workflow,
	mode: WorkflowExecuteMode,
): Promise<void> {
	if (node.typeVersion === 1) {
		const binaryData = workflow.expression.getSimpleParameterValue(
			node,
			'={{$parameter["options"]["binaryData"]}}',
			mode,
			{},
			undefined,
			false,
		);
		if (binaryData) return;
	}
	if (req.contentType === 'multipart/form-data') return;
	if (node.typeVersion > 1 && !isParsableContentType(req.contentType)) return;
	await parseBody(req);
}

/** The response code of the webhook description (n8n's default 200). */
export function responseCode(webhookData: IWebhookData): number {
	const code = webhookData.webhookDescription.responseCode;
	return typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : 200;
}

/** An answer n8n sends for a webhook call. */
export interface WebhookAnswer {
	code: number;
	body?: unknown;
}

/**
 * executeWebhook's answer in `onReceived` mode (handleImmediateWebhookResponse and after), undefined
 * when the node answered itself. With an execution, n8n builds it after storing the execution, and the
 * webhook's `responseData` comes first and defaults to the text "firstEntryJson"
 * (webhook-on-received-response-extractor); only an empty one lets `webhookResponse` through.
 */
export function onReceivedAnswer(
	res: WebhookResponse,
	result: IWebhookResponseData,
	code: number,
	responseData?: string,
): WebhookAnswer | undefined {
	if (result.noWebhookResponse === true || res.headersSent) return undefined;
	if (result.workflowData === undefined) {
		const webhookResponse: unknown = result.webhookResponse;
		return { code, body: webhookResponse ?? { message: 'Webhook call received' } };
	}
	const configured = responseData ?? 'firstEntryJson';
	if (configured === 'noData') return { code };
	if (configured !== '') return { code, body: configured };
	const webhookResponse: unknown = result.webhookResponse;
	return { code, body: webhookResponse ?? { message: 'Workflow was started' } };
}

/** Sends an answer unless the response is already on its way (or the client is gone). */
export function sendAnswer(res: WebhookResponse, answer: WebhookAnswer | undefined): void {
	if (answer === undefined || res.headersSent) return;
	if (answer.body === undefined) res.status(answer.code).send();
	else res.status(answer.code).send(answer.body);
}

/** What n8n answers when it cannot store the execution (executeWebhook's catch, OperationalError). */
export function respondStoreError(res: WebhookResponse): void {
	if (res.headersSent) return;
	res.status(500).json({ code: 500, message: 'There was a problem executing the workflow' });
}

/** What n8n answers when `webhook()` throws (webhook-helpers' _privateGetWebhookErrorMessage). */
export function respondWebhookError(res: WebhookResponse): void {
	if (res.headersSent) return;
	res
		.status(500)
		.json({ code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
}
