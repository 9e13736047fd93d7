// `npm run check -- lead:getScore` (scripts/check.mjs) sets CHECK_OPERATION=lead.getScore: the suites that run
// a case for every operation (output schemas, wrong types) then run that operation's cases and their
// whole-table tests only. `npm test` and .ci/run never set it: every case runs there.

/** Whether `operation` (`<resource>.<operation>`) is one this run checks. */
export function checksOperation(operation: string): boolean {
	const only = process.env.CHECK_OPERATION;
	return only === undefined || only === '' || only === operation;
}
