/** The credential, made through n8n's public API and tested by n8n itself against the simulator. */
import type { SuiteContext } from '../context';
import { expect } from '../harness';

const TYPE = 'workspacePracticeApi';

export async function credentialSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report } = ctx;
	const data = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };

	await report.step('credential: created through the public API', async () => {
		const created = await api.createCredential('Workspace Practice (simulator)', TYPE, data);
		expect(created.id, `no id in ${JSON.stringify(created)}`);
		ctx.credential = { id: created.id, name: created.name };
		return `credential ${created.id}`;
	});

	await report.step('credential: test passes against the simulator', async () => {
		expect(ctx.credential, 'no credential to test');
		sim.control.clearRequests();
		const result = await api.testCredential(ctx.credential.id, ctx.credential.name, TYPE, data);
		expect(result.status === 'OK', `n8n says: ${JSON.stringify(result)}`);
		const seen = sim.control.requests({ method: 'GET', path: '/workspace' });
		expect(seen.length >= 1, 'the simulator received no GET /workspace');
		expect(
			seen[0].headers.authorization === `Bearer ${sim.apiKey}`,
			'the test request carried the Bearer key',
		);
		return `status ${result.status}, GET /workspace with the Bearer key`;
	});

	await report.step('credential: test fails with a wrong key, with a clear message', async () => {
		const wrong = { ...data, apiKey: 'svc_live_' + 'x'.repeat(40) };
		const created = await api.createCredential('Workspace Practice (wrong key)', TYPE, wrong);
		const result = await api.testCredential(
			created.id,
			'Workspace Practice (wrong key)',
			TYPE,
			wrong,
		);
		expect(result.status === 'Error', `expected an error, n8n says ${JSON.stringify(result)}`);
		if (ctx.major === 1) {
			// n8n 1.123's credential tester does not see the HTTP status of a failed test request, so
			// the credential's 401 rule never applies there: it shows its own generic message.
			expect(
				/authori[sz]ation|credential|401/i.test(result.message),
				`unexpected message: "${result.message}"`,
			);
			return `"${result.message}" (n8n 1.x's own message; 2.x shows the credential's)`;
		}
		expect(
			/not accepted by the service \(revoked, or from another workspace\)/.test(result.message),
			`message does not say the service refused a well-formed key: "${result.message}"`,
		);
		return `"${result.message}"`;
	});

	await report.step(
		'credential: a malformed key is refused before any request, with the form expected',
		async () => {
			const malformed = { ...data, apiKey: 'svc_live_tooshort' };
			const created = await api.createCredential(
				'Workspace Practice (malformed key)',
				TYPE,
				malformed,
			);
			sim.control.clearRequests();
			const result = await api.testCredential(
				created.id,
				'Workspace Practice (malformed key)',
				TYPE,
				malformed,
			);
			expect(result.status === 'Error', `expected an error, n8n says ${JSON.stringify(result)}`);
			const sent = sim.control.requests({ path: '/workspace' }).length;
			expect(sent === 0, `${sent} request(s) reached the service`);
			expect(
				/expected form.*"_live_" and 40 letters or digits/.test(result.message),
				`message does not give the key's form: "${result.message}"`,
			);
			return `"${result.message}", no request`;
		},
	);
}
