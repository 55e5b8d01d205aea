import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks } from './markdown.tsx';

describe('Markdown', () => {
  it('renders headings, lists, code and inline formatting', () => {
    const { container } = render(
      <Markdown
        source={[
          '## Root cause',
          'The `npm ci` step **failed** because of *one* test.',
          '',
          '1. Run `npm test`',
          '2. Fix the [cache test](https://docs.example.test/cache)',
          '',
          '- first',
          '- second',
          '',
          '```bash',
          'npm test -- cache',
          '```',
        ].join('\n')}
      />,
    );
    expect(container.querySelector('h4')?.textContent).toBe('Root cause');
    expect(container.querySelector('p code')?.textContent).toBe('npm ci');
    expect(container.querySelector('p strong')?.textContent).toBe('failed');
    expect(container.querySelector('p em')?.textContent).toBe('one');
    expect(container.querySelectorAll('ol li')).toHaveLength(2);
    expect(container.querySelectorAll('ul li')).toHaveLength(2);
    expect(container.querySelector('a')?.getAttribute('href')).toBe(
      'https://docs.example.test/cache',
    );
    expect(container.querySelector('pre code')?.textContent).toBe('npm test -- cache');
  });

  it('never renders HTML or unsafe links from model output', () => {
    const { container } = render(
      <Markdown
        source={
          '<img src=x onerror=alert(1)> <script>alert(1)</script>\n\n[click](javascript:alert(1))'
        }
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('click');
  });

  it('keeps an unterminated code fence as code', () => {
    expect(parseBlocks('```\nline')).toEqual([{ kind: 'code', lang: '', text: 'line' }]);
  });
});
