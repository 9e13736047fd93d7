// Deterministic people for simulated form submissions.
import type { Prng } from '../prng';
import type { LeadStatus } from './host';

const FIRST_NAMES = [
	'Wei',
	'Li',
	'Mei',
	'Jun',
	'Hana',
	'Kenji',
	'Priya',
	'Arjun',
	'Sofia',
	'Lukas',
	'Emma',
	'Noah',
	'Olivia',
	'Mateo',
	'Amara',
	'Chen',
];
const LAST_NAMES = [
	'Zhang',
	'Wang',
	'Liu',
	'Sato',
	'Tanaka',
	'Sharma',
	'Patel',
	'Müller',
	'Rossi',
	'Smith',
	'Johnson',
	'Garcia',
	'Okafor',
	'Kim',
	'Nguyen',
	'Silva',
];
const COMPANIES = [
	['Northwind Traders', 'northwind.example'],
	['Contoso Cloud', 'contoso.example'],
	['Fabrikam Analytics', 'fabrikam.example'],
	['Tailspin Logistics', 'tailspin.example'],
	['Wide World Importers', 'wideworld.example'],
	['Litware Health', 'litware.example'],
	['Adventure Works', 'adventure.example'],
	['Proseware Labs', 'proseware.example'],
] as const;
const JOB_TITLES = [
	'Marketing Manager',
	'Head of Growth',
	'CMO',
	'Content Strategist',
	'Sales Director',
	'CTO',
	'Product Manager',
	'Founder',
];
const STATUSES: Array<[LeadStatus, number]> = [
	['new', 0.5],
	['contacted', 0.2],
	['qualified', 0.12],
	['converted', 0.1],
	['lost', 0.08],
];

export interface SimulatedPerson {
	email: string;
	name: string;
	company: string;
	job_title: string;
	status: LeadStatus;
}

export function simulatedPerson(random: Prng, serial: number): SimulatedPerson {
	const first = random.pick(FIRST_NAMES);
	const last = random.pick(LAST_NAMES);
	const [company, domain] = random.pick(COMPANIES);
	const local = `${first}.${last}`
		.toLowerCase()
		.normalize('NFD')
		.replace(/[^a-z.]/g, '');
	let roll = random.next();
	const status = STATUSES.find(([, share]) => (roll -= share) < 0)?.[0] ?? 'new';
	return {
		email: `${local}.${serial}@${domain}`,
		name: `${first} ${last}`,
		company,
		job_title: random.pick(JOB_TITLES),
		status,
	};
}
