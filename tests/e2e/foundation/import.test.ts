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
