import type { IExecuteFunctions } from 'n8n-workflow';

/** A plain-words note n8n shows above the node's output after the run (both n8n 2.8 and 2.41 have execution hints). */
export function addHint(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}
