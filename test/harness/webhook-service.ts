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

/**
 * executeWebhook's answers in `onReceived` mode (handleImmediateWebhookResponse and after). With an
 * execution, the webhook's `responseData` comes first and defaults to the text "firstEntryJson"
 * (webhook-on-received-response-extractor); only an empty one lets `webhookResponse` through.
 */
export function respondOnReceived(
	res: WebhookResponse,
	result: IWebhookResponseData,
	code: number,
	responseData?: string,
): void {
	if (result.noWebhookResponse === true || res.headersSent) return;
	const webhookResponse: unknown = result.webhookResponse;
	if (result.workflowData === undefined) {
		res.status(code).send(webhookResponse ?? { message: 'Webhook call received' });
		return;
	}
	const configured = responseData ?? 'firstEntryJson';
	if (configured === 'noData') res.status(code).send();
	else if (configured !== '') res.status(code).send(configured);
	else res.status(code).send(webhookResponse ?? { message: 'Workflow was started' });
}

/** What n8n answers when `webhook()` throws (webhook-helpers' _privateGetWebhookErrorMessage). */
export function respondWebhookError(res: WebhookResponse): void {
	if (res.headersSent) return;
	res
		.status(500)
		.json({ code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
}
