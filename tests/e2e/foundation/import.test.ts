import { expect, loginAs, test } from '../fixtures';

const records = [
	{
		question:
			'Which vaccine is offered to adults aged 65 and over against pneumococcal disease (e2e)?',
		options: ['PPV23', 'BCG', 'MMR', 'HPV'],
		correct_answer: 'PPV23',
		source: { isbn: '978-0-00-000000-0', page: 77, paragraph_id: 'e2e-p77-para01' },
		type: 'multiple_choice'
	},
	{
		question: 'Shingles vaccination is offered to adults in their seventies (e2e).',
		answer: 'True',
		source: { isbn: '978-0-00-000000-0', page: 78, paragraph_id: 'e2e-p78-para01' },
		type: 'true_false'
	}
];

test('an organiser imports a file through the page and finds the items in the table', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/imports');
	await page
		.getByLabel('Files')
		.first()
		.setInputFiles({
			name: 'e2e-batch.json',
			mimeType: 'application/json',
			buffer: Buffer.from(JSON.stringify(records))
		});
	await page.getByRole('button', { name: 'Import QA pairs' }).click();
	await expect(page.getByRole('status')).toContainText('2 created, 0 updated, 0 unchanged');

	await page.goto('/admin/items?q=e2e');
	await expect(page.getByText('2 items')).toBeVisible();
	await page.getByRole('link', { name: /pneumococcal disease \(e2e\)/ }).click();
	const correct = page.getByRole('listitem').filter({ hasText: '✓ correct' });
	await expect(correct).toHaveCount(1);
	await expect(correct).toContainText('PPV23');
});

test('a bad record rejects the whole upload with its index, field and reason', async ({ page }) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/imports');
	const bad = [
		records[0],
		{ ...records[1], question: 'A new statement (e2e-bad).', answer: 'Maybe' }
	];
	await page
		.getByLabel('Files')
		.first()
		.setInputFiles({
			name: 'bad.json',
			mimeType: 'application/json',
			buffer: Buffer.from(JSON.stringify(bad))
		});
	await page.getByRole('button', { name: 'Import QA pairs' }).click();
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('Import rejected: 1 problem in 1 record of 2');
	// The second record, counted as a person counts.
	await expect(alert.getByRole('cell', { name: 'bad.json record 2' })).toBeVisible();
	await expect(alert).toContainText('answer');
	await expect(alert).toContainText('must be "True" or "False"');
	await page.goto('/admin/items?q=e2e-bad');
	await expect(page.getByText('0 items')).toBeVisible();
});

test('QA pairs whose passage is not imported are imported with a warning kept in the history', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/imports');
	const orphan = {
		...records[1],
		question: 'Hepatitis B vaccination is offered to healthcare workers (e2e-orphan).',
		source: { isbn: '978-0-00-000000-0', page: 79, paragraph_id: 'e2e-no-such-passage' }
	};
	await page
		.getByLabel('Files')
		.first()
		.setInputFiles({
			name: 'orphan.json',
			mimeType: 'application/json',
			buffer: Buffer.from(JSON.stringify([orphan]))
		});
	await page.getByRole('button', { name: 'Import QA pairs' }).click();
	await expect(page.getByRole('status')).toContainText('1 created, 0 updated, 0 unchanged');
	const warning = page.getByRole('region', {
		name: 'Warning: QA pairs whose source passage is not imported'
	});
	await expect(warning).toContainText(
		'1 QA pair cites a paragraph id with no imported passage: e2e-no-such-passage.'
	);
	await expect(warning.getByRole('cell', { name: 'orphan.json record 1' })).toBeVisible();

	// The history row of this import keeps the warning after a reload.
	await page.goto('/admin/imports');
	const row = page.getByRole('row').filter({ hasText: 'orphan.json' });
	await expect(row.locator('details summary')).toHaveText('1');
	await row.locator('details summary').click();
	await expect(row).toContainText('cites a paragraph id with no imported passage');
});

test('a key written twice in one record rejects the upload, naming the record and the key', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/imports');
	const json = JSON.stringify([{ ...records[1], question: 'A repeated key (e2e-twice).' }]).replace(
		'"answer":"True"',
		'"answer":"True","answer":"False"'
	);
	await page
		.getByLabel('Files')
		.first()
		.setInputFiles({ name: 'twice.json', mimeType: 'application/json', buffer: Buffer.from(json) });
	await page.getByRole('button', { name: 'Import QA pairs' }).click();
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('Import rejected: 1 problem in 1 record of 1');
	await expect(alert).toContainText('A key written twice in one JSON object (1)');
	await expect(alert.getByRole('cell', { name: 'twice.json record 1' })).toBeVisible();
	await expect(alert.getByRole('cell', { name: 'answer', exact: true })).toBeVisible();
	await expect(alert).toContainText('JSON keeps only the last value');
	await page.goto('/admin/items?q=e2e-twice');
	await expect(page.getByText('0 items')).toBeVisible();
});
