// Percentage strings of the contract (docs/api-contract.md §7): two decimals and a % sign; trends carry a sign.

/** `part / whole` in hundredths of a percent, rounded half away from zero; 0 when `whole` is 0. */
function hundredths(part: number, whole: number): number {
	if (whole === 0) return 0;
	const value = (part * 10_000) / whole;
	return Math.sign(value) * Math.round(Math.abs(value));
}

function render(value: number): string {
	const magnitude = Math.abs(value);
	return `${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}%`;
}

/** `"12.50%"`; `"0.00%"` when `whole` is 0. */
export function percent(part: number, whole: number): string {
	return render(hundredths(part, whole));
}

/** Signed change from `previous` to `current`: `"+12.50%"`, `"-3.00%"`; from 0 to more, `"+100.00%"`. */
export function trend(current: number, previous: number): string {
	if (previous === 0) return current === 0 ? '+0.00%' : '+100.00%';
	const value = hundredths(current - previous, previous);
	return `${value < 0 ? '-' : '+'}${render(value)}`;
}

/** The ratio as a number, for sorting by a rate. */
export function ratio(part: number, whole: number): number {
	return whole === 0 ? 0 : part / whole;
}

/** An integer average, rounded half up; 0 when there is nothing to average. */
export function average(total: number, count: number): number {
	return count === 0 ? 0 : Math.round(total / count);
}
