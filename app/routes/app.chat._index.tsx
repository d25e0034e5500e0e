// /app/chat with no conversation open: the right pane's prompt.
export default function NoConversation() {
  return (
    <div className="h-100 d-flex align-items-center justify-content-center p-4 text-muted">
      <p className="mb-0">Choose a conversation, or start one with New Message or New group.</p>
    </div>
  );
}
