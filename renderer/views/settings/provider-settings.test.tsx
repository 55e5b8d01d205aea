import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderStatus, ProviderUpdateRequest } from '../../../server/contract.ts';
import { providerStatusFixture } from '../../testing/fixtures.ts';
import { errorResponse, jsonResponse, routeFetch } from '../../testing/render-with-feed.tsx';
import { ProviderSettings, fieldOfError } from './provider-settings.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const DEFAULTS: Record<string, { model: string; baseUrl: string }> = {
  offline: { model: '', baseUrl: '' },
  openai: { model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' },
  anthropic: { model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com/v1' },
};

/** GET/PUT /api/ai/provider with the service's rules: a switch resets model and endpoint, keys per provider. */
function fakeProviderService(initial: Partial<ProviderStatus> = {}) {
  let status: ProviderStatus = providerStatusFixture(initial);
  const keys = new Set<string>(status.apiKeySet ? [status.provider] : []);
  return routeFetch((method, url, body) => {
    if (url.pathname !== '/api/ai/provider') return undefined;
    if (method === 'GET') return jsonResponse(status);
    const u = body as ProviderUpdateRequest;
    if (u.baseUrl && !/^https?:\/\//.test(u.baseUrl))
      return errorResponse(400, `AI base URL must use http or https: '${u.baseUrl}'`);
    if (u.model !== undefined && u.model.length > 200)
      return errorResponse(400, "Invalid 'model': is too long");
    const provider = u.provider ?? status.provider;
    const changed = provider !== status.provider;
    if (u.apiKey === null) keys.delete(provider);
    else if (u.apiKey) keys.add(provider);
    const d = DEFAULTS[provider]!;
    status = {
      ...status,
      provider,
      model: u.model || (changed ? d.model : status.model || d.model),
      baseUrl: u.baseUrl || (changed ? d.baseUrl : status.baseUrl || d.baseUrl),
      apiKeySet: keys.has(provider),
      apiKeySource: keys.has(provider) ? 'memory' : null,
    };
    return jsonResponse(status);
  });
}

const puts = (calls: ReturnType<typeof routeFetch>['calls']) =>
  calls.filter((c) => c.method === 'PUT').map((c) => c.body);
const saveButton = () => screen.getByRole('button', { name: /Save provider/ }) as HTMLButtonElement;

describe('ProviderSettings', () => {
  it('switches to an OpenAI-compatible endpoint with a write-only key', async () => {
    const fake = fakeProviderService();
    restore = fake.restore;
    render(<ProviderSettings />);
    const openai = await screen.findByRole('radio', { name: 'OpenAI-compatible' });
    expect(saveButton().disabled).toBe(true);
    fireEvent.click(openai);
    fireEvent.change(screen.getByLabelText('Endpoint'), {
      target: { value: 'http://127.0.0.1:11434/v1' },
    });
    const key = screen.getByLabelText('API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    fireEvent.change(key, { target: { value: 'sk-secret' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('Provider settings saved.')).toBeTruthy();
    expect(puts(fake.calls)).toEqual([
      { provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-secret' },
    ]);
    // The key never comes back: the field is empty, the status says a key is set.
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('provider-key-state').textContent).toMatch(/^key set/);
    const current = screen.getByTestId('provider-status');
    expect(within(current).getByText('OpenAI-compatible')).toBeTruthy();
    expect(within(current).getByText('gpt-4o-mini')).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
  });

  it('sends only what changed, and back to offline drops the remote fields', async () => {
    const fake = fakeProviderService({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseUrl: 'https://api.anthropic.com/v1',
    });
    restore = fake.restore;
    render(<ProviderSettings />);
    const model = (await screen.findByLabelText('Model')) as HTMLInputElement;
    expect(model.value).toBe('claude-sonnet-4-5');
    fireEvent.change(model, { target: { value: 'claude-haiku-4-5' } });
    fireEvent.click(saveButton());
    await screen.findByText('Provider settings saved.');
    fireEvent.click(screen.getByRole('radio', { name: 'Offline (built in)' }));
    expect(screen.queryByLabelText('Model')).toBeNull();
    fireEvent.click(saveButton());
    await screen.findByText('Provider settings saved.');
    expect(puts(fake.calls)).toEqual([{ model: 'claude-haiku-4-5' }, { provider: 'offline' }]);
    expect(screen.getByTestId('provider-status').textContent).toContain('Offline analyser');
  });

  it("shows the service's validation error next to the field and keeps the edits", async () => {
    const fake = fakeProviderService({ provider: 'openai', ...DEFAULTS.openai });
    restore = fake.restore;
    render(<ProviderSettings />);
    const endpoint = (await screen.findByLabelText('Endpoint')) as HTMLInputElement;
    fireEvent.change(endpoint, { target: { value: 'ftp://models.local' } });
    fireEvent.click(saveButton());
    const error = await screen.findByText(
      "AI base URL must use http or https: 'ftp://models.local'",
    );
    expect(error.id).toBe('provider-base-url-error');
    expect(endpoint.getAttribute('aria-invalid')).toBe('true');
    expect(endpoint.getAttribute('aria-describedby')).toBe('provider-base-url-error');
    expect(endpoint.value).toBe('ftp://models.local');
    expect(screen.queryByText('Provider settings saved.')).toBeNull();
    // Editing the field clears the complaint.
    fireEvent.change(endpoint, { target: { value: 'http://models.local/v1' } });
    expect(screen.queryByText(/must use http or https/)).toBeNull();
  });

  it('removes a stored key with apiKey: null', async () => {
    const fake = fakeProviderService({
      provider: 'openai',
      ...DEFAULTS.openai,
      apiKeySet: true,
      apiKeySource: 'secret-store',
      secretStore: 'keychain',
    });
    restore = fake.restore;
    render(<ProviderSettings />);
    expect((await screen.findByTestId('provider-key-state')).textContent).toContain(
      'key set (kept in keychain)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove key' }));
    expect(await screen.findByText('Key removed.')).toBeTruthy();
    expect(puts(fake.calls)).toEqual([{ apiKey: null }]);
    expect(screen.getByTestId('provider-key-state').textContent).toMatch(/^no key/);
    expect(screen.queryByRole('button', { name: 'Remove key' })).toBeNull();
  });

  it('says so and disables the form when the environment pins the provider', async () => {
    const fake = fakeProviderService({ pinnedByEnvironment: true });
    restore = fake.restore;
    render(<ProviderSettings />);
    expect(await screen.findByRole('note')).toHaveProperty(
      'textContent',
      expect.stringContaining('AI_PROVIDER'),
    );
    const openai = screen.getByRole('radio', { name: 'OpenAI-compatible' }) as HTMLButtonElement;
    expect(openai.closest('fieldset')!.disabled).toBe(true);
    expect(saveButton().disabled).toBe(true);
    fireEvent.submit(saveButton().closest('form')!);
    expect(puts(fake.calls)).toEqual([]);
  });
});

describe('fieldOfError', () => {
  it('routes the service messages to their fields', () => {
    expect(fieldOfError("Invalid 'provider': must be one of offline, openai, anthropic")).toBe(
      'provider',
    );
    expect(fieldOfError("Invalid 'model': is too long")).toBe('model');
    expect(fieldOfError('AI base URL must not contain credentials; use the API key')).toBe(
      'baseUrl',
    );
    expect(fieldOfError("Invalid 'apiKey': is too long")).toBe('apiKey');
    expect(fieldOfError('Cannot reach the Pipeline Summary service. Is it running?')).toBe('form');
  });
});
