// A local SMTP server that accepts every message (no TLS, no auth) and keeps it in memory, decoded
// enough for assertions: envelope recipients, headers, subject and the text of a single-part body.
import { SMTPServer } from 'smtp-server';

function decodeQuotedPrintable(text) {
	const bytes = [];
	const soft = text.replace(/=\r?\n/g, '');
	for (let i = 0; i < soft.length; i++) {
		if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
			bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
			i += 2;
		} else {
			bytes.push(...Buffer.from(soft[i], 'utf8'));
		}
	}
	return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`) in a header value. */
function decodeHeader(value) {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset, encoding, data) =>
			encoding.toUpperCase() === 'B'
				? Buffer.from(data, 'base64').toString('utf8')
				: decodeQuotedPrintable(data.replace(/_/g, ' ')),
		);
}

export function parseMessage(raw) {
	const split = raw.search(/\r?\n\r?\n/);
	const head = split === -1 ? raw : raw.slice(0, split);
	const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
	const headers = {};
	for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
	let text = body;
	if (encoding === 'quoted-printable') text = decodeQuotedPrintable(body);
	else if (encoding === 'base64')
		text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	return {
		headers,
		from: decodeHeader(headers.from ?? ''),
		to: decodeHeader(headers.to ?? ''),
		subject: decodeHeader(headers.subject ?? ''),
		contentType: headers['content-type'] ?? 'text/plain',
		text: text.replace(/\r\n/g, '\n').replace(/\n$/, ''),
	};
}

/**
 * Starts the sink on 127.0.0.1 (port 0: any free one). `messages` fills as mail arrives;
 * `waitFor(predicate)` resolves with the first message that matches.
 */
export async function startSmtpSink({ port = 0, onMessage } = {}) {
	const messages = [];
	const waiters = new Set();
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		banner: 'n8n-nodes-content-marketing e2e SMTP sink',
		onData(stream, session, callback) {
			const chunks = [];
			stream.on('data', (chunk) => chunks.push(chunk));
			stream.on('end', () => {
				const message = {
					...parseMessage(Buffer.concat(chunks).toString('utf8')),
					envelope: {
						from: session.envelope.mailFrom?.address,
						to: session.envelope.rcptTo.map((r) => r.address),
					},
					receivedAt: new Date(),
				};
				messages.push(message);
				onMessage?.(message);
				for (const waiter of waiters) waiter(message);
				callback();
			});
		},
	});
	server.on('error', () => {}); // a client dropping its connection is not our failure
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});

	function waitFor(predicate, { timeoutMs = 20_000, label = 'an e-mail' } = {}) {
		const found = messages.find(predicate);
		if (found) return Promise.resolve(found);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				waiters.delete(check);
				reject(
					new Error(
						`no ${label} arrived at the SMTP sink within ${timeoutMs / 1000} s (${messages.length} message(s) received)`,
					),
				);
			}, timeoutMs);
			function check(message) {
				if (!predicate(message)) return;
				clearTimeout(timer);
				waiters.delete(check);
				resolve(message);
			}
			waiters.add(check);
		});
	}

	return {
		port: server.server.address().port,
		messages,
		waitFor,
		/** Messages whose envelope lists this recipient. */
		to: (address) => messages.filter((m) => m.envelope.to.includes(address)),
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}
