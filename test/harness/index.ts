export { createHarness, Harness, type HarnessOptions } from './harness';
export type { RunOptions } from './run-workflow';
export { RunResult } from './run-result';
export { NODE_UNDER_TEST, type NodeRunResult, type RunNodeOptions } from './run-node';
export { PollHarness, type PollOptions, type PollOutcome, type PollScheduler } from './poll';
export {
	TriggerHarness,
	type Delivery,
	type DeliveryRequest,
	type DeliveryResult,
	type StaticDataStore,
	type StoreExecution,
	type TriggerOptions,
} from './trigger';
export { WebhookServer, type WebhookMode } from './webhook-server';
export type { WebhookRequest, WebhookResponse } from './webhook-http';
export {
	SET_ITEMS_NODE_TYPE,
	START_NODE_TYPE,
	binary,
	chain,
	setItemsNode,
	startNode,
	type WorkflowNode,
} from './core-nodes';
export type { WorkflowJson } from './workflow';
export {
	DEFAULT_CREDENTIAL_ID,
	HarnessCredentialsHelper,
	type StoredCredential,
} from './credentials-helper';
export { HarnessCredentialTypes } from './credential-types';
export { HarnessNodeTypes, type AnyNodeType } from './node-types';
export { DEFAULT_ORIGIN, type HarnessUrls } from './additional-data';
export type { BinaryDataMode } from './binary-data';
export type { LoadedPackage } from './package-loader';
export { EXAMPLE_CREDENTIAL, createExampleHarness, readExample } from './examples';
