// The toolbar's menus for the browser tests (app/src/toolbar.rs, popover.rs): each is a button
// (`button[popovertarget=ID]`) that opens a popover panel `#ID`. On a narrow screen the menus
// sit in the one "Menu" (`#toolbar-more`), which opens first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

export const MENUS = { data: 'menu-data', machine: 'menu-machine', chart: 'menu-chart', export: 'menu-export' };

const isOpen = (locator) => locator.evaluate((el) => el.matches(':popover-open'));

/// Opens the menu panel `id` (one of MENUS) if it is not open, and returns its locator.
export async function openMenu(page, id) {
  const panel = page.locator(`#${id}`);
  if (await isOpen(panel)) return panel;
  const more = page.locator('#toolbar-more');
  if (!(await more.isVisible())) {
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await more.waitFor({ state: 'visible' });
  }
  await page.locator(`button[popovertarget="${id}"]`).click();
  await panel.waitFor({ state: 'visible' });
  return panel;
}

/// Whether the menu panel `id` is open.
export function menuOpen(page, id) {
  return isOpen(page.locator(`#${id}`));
}

/// Picks a built-in example from the Data menu (it closes the menu).
export async function pickExample(page, id) {
  await openMenu(page, MENUS.data);
  await page.locator(`button[data-example="${id}"]`).click();
}

/// axe-core's source, evaluated in the page by the tests (through the debugging protocol,
/// which the page's Content-Security-Policy does not apply to).
export const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/// axe-core's violations on the page as it is (WCAG 2.x A and AA rules and best practices).
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}
