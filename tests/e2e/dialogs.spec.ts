import { expect, test } from '@playwright/test';
import { signedIn } from './support';

// Toasts render outside every dialog: dismissing one must not count as a click away from an open dialog, which
// closed it and lost what was typed (seen with the triage dialog while a scan's toast was still up).

test('closing a toast leaves an open dialog open', async ({ page }) => {
  await signedIn(page);
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create New Project' });
  await create.getByLabel('Project Name').fill('Toast');
  await create.getByLabel('Website URL').fill('https://example.com');
  await create.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(create).toBeHidden();
  const toast = page.getByTestId('toast').filter({ hasText: 'Project created' });
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  await expect(create).toBeVisible();
  await create.getByLabel('Project Name').fill('typed');
  await toast.hover();
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toBeHidden();
  await expect(create).toBeVisible();
  await expect(create.getByLabel('Project Name')).toHaveValue('typed');
});
