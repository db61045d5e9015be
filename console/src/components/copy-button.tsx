import { useState } from 'react';

/** Copies `value` to the clipboard and says so; `label` names what is copied, for screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  // The visible word starts the accessible name, as speech input users say what they see.
  return (
    <button type="button" className="small-button" onClick={() => void copy()}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
      <span className="visually-hidden"> {label}</span>
      {state === 'failed' && <span className="small"> (select the text instead)</span>}
    </button>
  );
}
