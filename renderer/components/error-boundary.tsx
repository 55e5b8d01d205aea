import type { ReactNode } from 'react';
import { Component } from 'react';
import { ErrorBox } from './feedback.tsx';

/** Catches a rendering crash in one area so the rest of the dashboard keeps working. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (this.state.error) {
      return (
        <ErrorBox
          title="This view failed to render"
          message={this.state.error.message}
          onRetry={() => this.setState({ error: null })}
        />
      );
    }
    return this.props.children;
  }
}
