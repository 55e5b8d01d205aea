import type { SystemPromptResponse, SystemPromptUpdateResponse } from '../contract.ts';
import { AppError } from '../platform/errors.ts';
import { DEFAULT_SYSTEM_PROMPT, MAX_SYSTEM_PROMPT_CHARS } from './prompt.ts';
import type { AnalysisStore } from './store/analysis-store.ts';

const SETTING = 'system_prompt';

/** The system prompt sent to configured providers: the user's own, or the default. */
export interface SystemPrompt {
  /** The prompt to send now. */
  current(): string;
  get(): SystemPromptResponse;
  set(prompt: string): SystemPromptUpdateResponse;
  reset(): SystemPromptUpdateResponse;
}

/** The system prompt, kept in the analysis store's settings. */
export function createSystemPrompt(store: AnalysisStore): SystemPrompt {
  return {
    current: () => store.getSetting(SETTING) ?? DEFAULT_SYSTEM_PROMPT,

    get() {
      const stored = store.getSetting(SETTING);
      return { prompt: stored ?? DEFAULT_SYSTEM_PROMPT, isDefault: stored === undefined };
    },

    set(prompt) {
      const trimmed = prompt.trim();
      if (trimmed === '') throw new AppError('bad_request', "Invalid 'prompt': must not be empty");
      if (trimmed.length > MAX_SYSTEM_PROMPT_CHARS) {
        throw new AppError(
          'bad_request',
          `Invalid 'prompt': longer than ${MAX_SYSTEM_PROMPT_CHARS} characters`,
        );
      }
      store.setSettings({ [SETTING]: trimmed });
      return { success: true, prompt: trimmed };
    },

    reset() {
      store.setSettings({ [SETTING]: undefined });
      return { success: true, prompt: DEFAULT_SYSTEM_PROMPT };
    },
  };
}
