import type { Clock } from './behaviour/host';

/** Real time plus an offset that the control surface can advance; the only reader of the system clock. */
export class SandboxClock implements Clock {
	private offsetMs = 0;
	private readonly listeners: Array<(from: Date, to: Date) => void> = [];

	now(): Date {
		return new Date(Date.now() + this.offsetMs);
	}

	advance(ms: number): void {
		const from = this.now();
		this.offsetMs += ms;
		const to = this.now();
		for (const listener of this.listeners) listener(from, to);
	}

	onAdvance(listener: (from: Date, to: Date) => void): void {
		this.listeners.push(listener);
	}
}
