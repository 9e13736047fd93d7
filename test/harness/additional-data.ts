import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials-helper';

/** The absolute base URLs n8n puts into additionalData (see cli's WorkflowExecuteAdditionalData.getBase). */
export interface HarnessUrls {
	instanceBaseUrl: string;
	restApiUrl: string;
	webhookBaseUrl: string;
	webhookTestBaseUrl: string;
	webhookWaitingBaseUrl: string;
	formWaitingBaseUrl: string;
}

export const DEFAULT_ORIGIN = 'http://localhost:5678';

/** URL paths under the origin, as n8n's default `endpoints` config names them. */
export const ENDPOINTS = {
	rest: 'rest',
	webhook: 'webhook',
	webhookTest: 'webhook-test',
	webhookWaiting: 'webhook-waiting',
	formWaiting: 'form-waiting',
} as const;

export function urlsFor(origin: string): HarnessUrls {
	const base = origin.replace(/\/+$/, '');
	return {
		instanceBaseUrl: base,
		restApiUrl: `${base}/${ENDPOINTS.rest}`,
		webhookBaseUrl: `${base}/${ENDPOINTS.webhook}`,
		webhookTestBaseUrl: `${base}/${ENDPOINTS.webhookTest}`,
		webhookWaitingBaseUrl: `${base}/${ENDPOINTS.webhookWaiting}`,
		formWaitingBaseUrl: `${base}/${ENDPOINTS.formWaiting}`,
	};
}

/** n8n types these as express objects; the harness supplies node http objects with express' extras. */
export type HttpRequestSlot = IWorkflowExecuteAdditionalData['httpRequest'];
export type HttpResponseSlot = IWorkflowExecuteAdditionalData['httpResponse'];

export interface AdditionalDataOptions {
	credentialsHelper: HarnessCredentialsHelper;
	urls: HarnessUrls;
	/** Left out where n8n has no execution yet (webhook setup methods). */
	executionId?: string;
	hooks?: ExecutionLifecycleHooks;
	userId?: string;
	variables?: Record<string, string>;
	httpRequest?: HttpRequestSlot;
	httpResponse?: HttpResponseSlot;
}

export function createAdditionalData(
	options: AdditionalDataOptions,
): IWorkflowExecuteAdditionalData {
	const { credentialsHelper, urls, executionId, hooks, userId = 'harness-user' } = options;
	return {
		...urls,
		credentialsHelper,
		executionId,
		hooks,
		userId,
		variables: { ...options.variables },
		currentNodeExecutionIndex: 0,
		externalSecretsProxy: new ExternalSecretsProxy(),
		httpRequest: options.httpRequest,
		httpResponse: options.httpResponse,
		executeWorkflow: async () => {
			throw new UnexpectedError('The test harness cannot execute sub-workflows');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		async startRunnerTask() {
			throw new UnexpectedError('The test harness has no task runners (Code node)');
		},
	};
}
