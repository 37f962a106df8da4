/// <reference lib="dom" />
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { type FormEvent, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { hasPendingApprovals, MessageApprovals, SandboxApprovalStyles } from 'sandbox-approval/react';

/** The chat: text parts as text, tool calls through sandbox-approval/react. */
function App() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    // Answering the last approval resumes the run (request 2 executes the approved calls).
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const composer = useRef<HTMLInputElement>(null);
  const busy = status === 'submitted' || status === 'streaming';
  // The composer waits while an approval is pending, or approved but not run because its request failed
  // (a message sent past either would orphan the card or leave a dangling approved call in the history).
  const waiting = hasPendingApprovals(messages, { busy });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!input.trim() || waiting) return;
    void sendMessage({ text: input });
    setInput('');
  };
  return (
    <>
      <SandboxApprovalStyles />
      <h1>Sandbox approvals in the browser</h1>
      <p className="hint">
        Try “edit”, “overwrite”, “create”, “delete” or “move”. Status:{' '}
        <span data-testid="status">{status}</span>
      </p>
      {messages.map((m) => (
        <div key={m.id} className={`msg ${m.role}`} data-role={m.role}>
          {m.parts.map((p, i) =>
            p.type === 'text' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one message never reorder
              <div key={i} data-testid={`${m.role}-text`}>
                {p.text}
              </div>
            ) : null,
          )}
          {m.role === 'assistant' ? (
            <MessageApprovals
              message={m}
              addToolApprovalResponse={addToolApprovalResponse}
              onAnswered={() => composer.current?.focus()}
              busy={busy}
              // Resends the history with the approval: the server runs it if it was never claimed.
              onRetry={() => {
                composer.current?.focus();
                void sendMessage();
              }}
            />
          ) : null}
        </div>
      ))}
      {error ? <div role="alert">Error: {error.message}</div> : null}
      {waiting ? (
        <p className="hint" data-testid="composer-waiting">
          Answer (or retry) the approval above before sending a new message.
        </p>
      ) : null}
      <form onSubmit={submit}>
        <input
          ref={composer}
          aria-label="Message"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="Ask the agent…"
        />
        <button type="submit" disabled={waiting || busy}>
          Send
        </button>
      </form>
    </>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
