import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationSettings } from '../../../server/contract.ts';
import { summaryFixture } from '../../testing/fixtures.ts';
import { jsonResponse, renderWithFeed, routeFetch } from '../../testing/render-with-feed.tsx';
import { NotificationSettingsSection } from './notification-settings.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
  delete (globalThis as { pipelineSummary?: unknown }).pipelineSummary;
});

/** GET/PUT /api/notifications/settings with the service's merge rule. */
function fakeSettingsService() {
  let settings: NotificationSettings = {
    reasons: { mine: true, 'default-branch': true, watched: true },
    quiet_hours: null,
    muted_projects: [],
    starred_projects: [],
  };
  const fake = routeFetch((method, url, body) => {
    if (url.pathname === '/api/pipelines/summary') return undefined;
    if (url.pathname !== '/api/notifications/settings') return undefined;
    if (method === 'PUT') {
      const u = body as Partial<NotificationSettings>;
      settings = { ...settings, ...u, reasons: { ...settings.reasons, ...u.reasons } };
    }
    return jsonResponse(settings);
  });
  restore = fake.restore;
  return fake;
}

const now = new Date('2026-03-10T12:00:00Z');

describe('Settings → Notifications', () => {
  it('switches reasons, stars and mutes projects, and sets quiet hours through the service', async () => {
    const fake = fakeSettingsService();
    const summary = summaryFixture(2, now);
    renderWithFeed(<NotificationSettingsSection />, summary);
    const mine = await screen.findByRole('checkbox', { name: /My pipelines/ });
    fireEvent.click(mine);
    await waitFor(() => expect((mine as HTMLInputElement).checked).toBe(false));
    const project = summary.projects[0]!;
    fireEvent.click(await screen.findByRole('checkbox', { name: `Star ${project.project_name}` }));
    fireEvent.click(screen.getByRole('checkbox', { name: `Mute ${project.project_name}` }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Quiet hours/ }));
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
        { reasons: { mine: false } },
        { starred_projects: [project.project_id] },
        { muted_projects: [project.project_id] },
        { quiet_hours: { start: '22:00', end: '07:00' } },
      ]),
    );
  });

  it('offers copy-token instead of browser notifications inside the desktop app', async () => {
    fakeSettingsService();
    const copied: string[] = [];
    (globalThis as { pipelineSummary?: unknown }).pipelineSummary = {
      listProfiles: async () => ['default', 'ci'],
      copyToken: async (p: string) => {
        copied.push(p);
        return { ok: true };
      },
    };
    renderWithFeed(<NotificationSettingsSection />, summaryFixture(1, now));
    const section = await screen.findByRole('region', { name: 'Notifications' });
    expect(within(section).queryByRole('button', { name: /browser notifications/ })).toBeNull();
    fireEvent.change(await within(section).findByLabelText(/Copy an access token/), {
      target: { value: 'ci' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Copy token' }));
    expect(await within(section).findByText('Copied to the clipboard.')).toBeTruthy();
    expect(copied).toEqual(['ci']);
  });
});
