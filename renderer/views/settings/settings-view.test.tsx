import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSince } from '../../../server/summary/since.ts';
import { providerStatusFixture, summaryFixture } from '../../testing/fixtures.ts';
import {
  errorResponse,
  jsonResponse,
  renderWithFeed,
  routeFetch,
} from '../../testing/render-with-feed.tsx';
import SettingsView from './settings-view.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

function fakeService() {
  let settings = { group: 'acme/web', since: '7d', forgeUrl: 'http://gitlab.test' };
  let prompt = 'Default prompt';
  return routeFetch((method, url, body) => {
    const p = url.pathname;
    if (p === '/api/settings' && method === 'GET') return jsonResponse(settings);
    // The service's own rule answers, so this fake cannot drift from it.
    if (p === '/api/settings/since')
      return jsonResponse(checkSince(url.searchParams.get('value')!));
    if (p === '/api/settings' && method === 'POST') {
      settings = { ...settings, ...(body as object) };
      return jsonResponse({ success: true, group: settings.group, since: settings.since });
    }
    if (p === '/api/groups/acme%2Fweb' || p === '/api/groups/acme/web')
      return jsonResponse({
        id: 2,
        name: 'Web',
        path: 'web',
        full_path: 'acme/web',
        description: '',
        visibility: 'private',
        parent_id: 1,
      });
    if (p === '/api/groups/acme%2Fweb/subgroups' || p === '/api/groups/acme/web/subgroups')
      return jsonResponse([{ id: 5, name: 'Sites', path: 'sites', full_path: 'acme/web/sites' }]);
    if (p === '/api/groups/parent/1')
      return jsonResponse([
        { id: 2, name: 'Web', path: 'web' },
        { id: 3, name: 'Platform', path: 'platform' },
      ]);
    if (p === '/api/groups/1')
      return jsonResponse({
        id: 1,
        name: 'Acme',
        path: 'acme',
        full_path: 'acme',
        description: '',
        visibility: 'private',
        parent_id: null,
      });
    if (p.startsWith('/api/groups/')) return errorResponse(404, 'Group not found');
    if (p === '/api/ai/system-prompt' && method === 'GET') return jsonResponse({ prompt });
    if (p === '/api/ai/system-prompt' && method === 'PUT') {
      prompt = (body as { prompt: string }).prompt;
      return jsonResponse({ success: true, prompt });
    }
    if (p === '/api/ai/provider')
      return jsonResponse(
        providerStatusFixture({ pinnedByEnvironment: true, providers: ['offline'] }),
      );
    return undefined;
  });
}

describe('SettingsView', () => {
  it('browses subgroups and parent siblings, validates the window like the server and saves', async () => {
    const fake = fakeService();
    restore = fake.restore;
    renderWithFeed(<SettingsView />, summaryFixture(1, new Date()));
    const group = await screen.findByRole('textbox', { name: 'Group' });
    expect((group as HTMLInputElement).value).toBe('acme/web');
    expect(await screen.findByText('acme/web/sites')).toBeTruthy();
    expect(screen.getByText('acme/platform')).toBeTruthy();

    fireEvent.click(screen.getByText('acme/platform'));
    expect((group as HTMLInputElement).value).toBe('acme/platform');

    const since = screen.getByLabelText('Time window', { selector: 'input' });
    fireEvent.change(since, { target: { value: '10 days' } });
    expect(await screen.findByText(/positive whole number followed by m, h, d or w/)).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: /Save and reload/ }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '1d' }));
    expect(screen.getByText('Pipelines created in the last 1 day.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Save and reload/ }));
    expect(await screen.findByText(/Saved/)).toBeTruthy();
    const post = fake.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ group: 'acme/platform', since: '1d' });
  });

  it('edits and saves the system prompt and shows the provider status', async () => {
    const fake = fakeService();
    restore = fake.restore;
    renderWithFeed(<SettingsView />, summaryFixture(1, new Date()));
    const editor = await screen.findByRole('textbox', { name: 'System prompt' });
    await waitFor(() => expect((editor as HTMLTextAreaElement).value).toBe('Default prompt'));
    fireEvent.change(editor, { target: { value: 'Be brief.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save prompt' }));
    expect(await screen.findByText('System prompt saved.')).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'PUT')!.body).toEqual({ prompt: 'Be brief.' });
    expect(screen.getByTestId('provider-status').textContent).toContain('Offline analyser');
  });
});
